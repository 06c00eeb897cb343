//go:build unix

package cachefile

import (
	"os"
	"syscall"
)

// OpenFlags open an index file without following a symlink or waiting on a FIFO.
const OpenFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// Trusted reports whether fi is ours and writable by nobody else.
func Trusted(fi os.FileInfo, dir bool) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || int(st.Uid) != os.Geteuid() || fi.Mode().Perm()&0o022 != 0 {
		return false
	}
	if dir {
		return fi.IsDir()
	}
	return fi.Mode().IsRegular()
}
