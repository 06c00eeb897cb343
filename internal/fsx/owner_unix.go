//go:build !windows

package digest

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByMe reports whether the directory belongs to the effective user.
func ownedByMe(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}

// trustedLink reports whether a symlink may be followed on the way to a
// digest directory: it belongs to the effective user or to root. A link
// another user planted (in /tmp, or in a directory they own) is not.
func trustedLink(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && (int(st.Uid) == os.Geteuid() || st.Uid == 0)
}

// sharedWritable reports whether group or others may write the directory.
func sharedWritable(fi fs.FileInfo) bool { return fi.Mode().Perm()&0o022 != 0 }
