package records

import "syscall"

const haveStat = true

// lstat is the [FileStat] of name, not following a final symlink.
func lstat(name string) (FileStat, bool) {
	var st syscall.Stat_t
	for {
		err := syscall.Lstat(name, &st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
			return FileStat{}, false
		}
		break
	}
	return FileStat{
		Size: st.Size, MtimeNs: st.Mtim.Nano(), CtimeNs: st.Ctim.Nano(),
		Ino: st.Ino, Dev: uint64(st.Dev), Mode: st.Mode,
	}, true
}
