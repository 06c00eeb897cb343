//go:build unix

package wholerow

import (
	"os"
	"syscall"
)

// writeOnce is exactly one write(2) (os.File.Write retries a short write,
// which would land the rest after another appender's row).
func writeOnce(f *os.File, b []byte) (n int, err error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	werr := rc.Write(func(fd uintptr) bool {
		for {
			n, err = syscall.Write(int(fd), b)
			if err != syscall.EINTR {
				break
			}
		}
		if n < 0 {
			n = 0
		}
		return true // never wait for a slow reader: EAGAIN is an error
	})
	if err == nil {
		err = werr
	}
	return n, err
}
