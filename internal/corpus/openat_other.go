//go:build !linux

package corpus

import (
	"io/fs"
	"os"
	"syscall"

	"github.com/procedures-go/procedures/internal/fsx"
)

// openNoFollow opens rel below r for reading, refusing a symlink in its
// last component (checked with Lstat just before the open: a symlink
// swapped in after that is caught by the caller's identity check,
// os.SameFile against the scan, as is any other file swapped in).
func openNoFollow(r *os.Root, rel string) (*os.File, error) {
	fi, err := r.Lstat(rel)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, &os.PathError{Op: "open", Path: rel, Err: syscall.ELOOP}
	}
	return r.OpenFile(rel, os.O_RDONLY|fsx.NonBlock, 0)
}
