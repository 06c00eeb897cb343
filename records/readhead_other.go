//go:build !unix

package records

import (
	"io"
	"os"
)

// nonblock: no FIFO can be swapped in for a record here.
const nonblock = 0

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
	for {
		if len(buf) >= MaxFrontmatter {
			return buf, true, nil
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):min(cap(buf), MaxFrontmatter)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, false, nil
		}
		if err != nil {
			return buf, false, err
		}
		if n > 0 && done(buf) {
			return buf, false, nil
		}
	}
}
