//go:build unix

package index

import (
	"os"
	"syscall"
)

// openFlags open an index file without following a symlink or waiting on a FIFO.
const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// trusted reports whether fi is ours and writable by nobody else.
func trusted(fi os.FileInfo, dir bool) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || int(st.Uid) != os.Geteuid() || fi.Mode().Perm()&0o022 != 0 {
		return false
	}
	if dir {
		return fi.IsDir()
	}
	return fi.Mode().IsRegular()
}
