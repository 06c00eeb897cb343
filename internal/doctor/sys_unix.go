//go:build unix

package doctor

import (
	"io/fs"
	"os"
	"syscall"
)

// owner returns the uid owning fi.
func owner(fi fs.FileInfo) (uid int, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

// ownedByMe reports whether fi belongs to the effective user.
func ownedByMe(fi fs.FileInfo) bool {
	uid, ok := owner(fi)
	return ok && uid == os.Geteuid()
}

// The access(2) modes.
const (
	accessW = 0x2
	accessX = 0x1
)

// access asks the kernel whether the current user may use path in mode
// (accessW, accessX or both) without trying it, so nothing is written.
func access(path string, mode uint32) error {
	return syscall.Access(path, mode)
}
