//go:build unix

package records

import "syscall"

// readHead reads as much of a file as queries need: all of it, or enough
// to hold the frontmatter and the first non-blank body line. On Unix it
// uses plain open/read/close (no poller registration, no fstat) and does not
// follow a symlink swapped in after the scan listed a regular file.
func readHead(name string, buf []byte) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return buf, err
	}
	defer syscall.Close(fd)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return buf, err
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
		if haveHead(buf) {
			return buf, nil
		}
	}
}
