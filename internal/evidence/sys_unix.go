//go:build unix

package evidence

import (
	"io/fs"
	"os"
	"sync"
	"syscall"
)

// trusted reports whether fi belongs to the effective user and is not
// writable by others: what another user could have written is not read.
func trusted(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	return int(st.Uid) == euid() && fi.Mode().Perm()&0o002 == 0
}

// euid is the effective user, asked of the kernel once per process (a
// sweep checks every file and directory it reads).
var euid = sync.OnceValue(os.Geteuid)
