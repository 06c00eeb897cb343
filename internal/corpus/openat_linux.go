package corpus

import (
	"os"
	"strings"
	"syscall"

	"github.com/procedures-go/procedures/internal/fsx"
)

// openNoFollow opens rel below r for reading without following a symlink
// in its last component (openat(2) with O_NOFOLLOW on its directory, opened
// through r so it stays below r) and without waiting on a FIFO.
func openNoFollow(r *os.Root, rel string) (*os.File, error) {
	dir, base := ".", rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		dir, base = rel[:i], rel[i+1:]
	}
	d, err := r.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	rc, err := d.SyscallConn()
	if err != nil {
		return nil, err
	}
	fd := -1
	var oerr error
	cerr := rc.Control(func(dfd uintptr) {
		for {
			fd, oerr = syscall.Openat(int(dfd), base, syscall.O_RDONLY|syscall.O_CLOEXEC|fsx.NoFollow|fsx.NonBlock, 0)
			if oerr != syscall.EINTR {
				return
			}
		}
	})
	if cerr != nil {
		return nil, cerr
	}
	if oerr != nil {
		return nil, &os.PathError{Op: "openat", Path: rel, Err: oerr}
	}
	return os.NewFile(uintptr(fd), rel), nil
}
