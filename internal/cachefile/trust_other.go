//go:build !unix

package cachefile

import "os"

const OpenFlags = 0

// Trusted is false where file ownership cannot be read: an index is then
// never loaded, so every query reads the records as with PROCEDURES_NO_INDEX.
func Trusted(os.FileInfo, bool) bool { return false }
