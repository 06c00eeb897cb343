//go:build unix

package corpus

import (
	"io"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/procedures-go/procedures/internal/fsx"
)

// readHead reads as much of a file as a reader needs: all of it, until
// done(prefix) says enough, or [MaxFrontmatter] bytes (capped is then true).
// It uses plain open/read/close (no poller registration), does not follow a
// symlink swapped in after the scan, never waits on a FIFO swapped in after the scan (fsx.NonBlock) and
// reads nothing unless fstat on the descriptor says regular file.
func readHead(name string, buf []byte, done func([]byte) bool) (_ []byte, capped bool, _ error) {
	return readHeadStat(name, buf, done, nil)
}

// readHeadStat is readHead that also fills st (when not nil) with the
// descriptor's fstat, taken before any read.
func readHeadStat(name string, buf []byte, done func([]byte) bool, st *syscall.Stat_t) (_ []byte, capped bool, _ error) {
	return readHeadAt(unix.AT_FDCWD, name, buf, done, st)
}

// readHeadAt is readHeadStat of name relative to the directory dirfd
// (openat(2); AT_FDCWD for a path as given).
func readHeadAt(dirfd int, name string, buf []byte, done func([]byte) bool, st *syscall.Stat_t) (_ []byte, capped bool, _ error) {
	var fd int
	var err error
	for {
		fd, err = unix.Openat(dirfd, name, openHeadFlags, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return buf, false, err
	}
	return readOpened(fd, buf, done, st)
}

// openHeadFlags open a file for readHead.
const openHeadFlags = unix.O_RDONLY | unix.O_CLOEXEC | fsx.NoFollow | fsx.NonBlock

// readOpened is readHeadStat of the descriptor fd, which it closes.
func readOpened(fd int, buf []byte, done func([]byte) bool, st *syscall.Stat_t) (_ []byte, capped bool, _ error) {
	defer syscall.Close(fd)
	var local syscall.Stat_t
	if st == nil {
		st = &local
	}
	if err := syscall.Fstat(fd, st); err != nil {
		return buf, false, err
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return buf, false, ErrNotRegular
	}
	return fillHead(buf, func(b []byte) (int, error) {
		for {
			n, err := syscall.Read(fd, b)
			switch {
			case err == syscall.EINTR:
				continue
			case err != nil:
				return 0, err
			case n == 0:
				return 0, io.EOF
			}
			return n, nil
		}
	}, done)
}
