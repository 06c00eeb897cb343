//go:build !windows

package fsx

import (
	"io/fs"
	"os"
	"syscall"
)

// OwnedByMe reports whether fi (from Stat or Lstat) belongs to the
// effective user.
func OwnedByMe(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}

// TrustedLink reports whether a symlink (fi from Lstat) may be followed on
// the way to a private directory: it belongs to the effective user or to
// root. A link another user planted (in /tmp, or in a directory they own)
// is not.
func TrustedLink(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && (int(st.Uid) == os.Geteuid() || st.Uid == 0)
}

// SharedWritable reports whether group or others may write fi.
func SharedWritable(fi fs.FileInfo) bool { return fi.Mode().Perm()&0o022 != 0 }
