//go:build linux

package evidence

import (
	"io/fs"
	"syscall"
	"time"
)

// statOf is what the cache compares of a file: device, inode, size, mtime
// and ctime, and when the stat was made.
func statOf(fi fs.FileInfo, at time.Time) fileStat {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStat{}
	}
	return fileStat{dev: st.Dev, ino: st.Ino, size: st.Size, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(), at: at.UnixNano()}
}
