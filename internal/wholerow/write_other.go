//go:build !unix

package wholerow

import "os"

// writeOnce is f.Write: no O_APPEND atomicity to keep here.
func writeOnce(f *os.File, b []byte) (int, error) { return f.Write(b) }
