//go:build !unix

package corpus

import "os"

// readHead reads as much of a file as a reader needs: all of it, until
// done(prefix) says enough, or [MaxFrontmatter] bytes (capped is then true).
// Nothing is read unless the opened file is a regular file.
func readHead(name string, buf []byte, done func([]byte) bool) (_ []byte, capped bool, _ error) {
	f, err := os.Open(name)
	if err != nil {
		return buf, false, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return buf, false, err
	} else if !fi.Mode().IsRegular() {
		return buf, false, ErrNotRegular
	}
	return fillHead(buf, f.Read, done)
}
