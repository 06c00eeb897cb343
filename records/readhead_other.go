//go:build !unix

package records

import (
	"io"
	"os"
)

// readHead reads as much of a file as queries need: all of it, or enough
// to hold the frontmatter and the first non-blank body line.
func readHead(name string, buf []byte) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return buf, err
	}
	defer f.Close()
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
		if n > 0 && haveHead(buf) {
			return buf, nil
		}
	}
}
