package cachefile

import (
	"sync"

	"golang.org/x/sys/unix"
)

// FineDev is the device of root when its file system stamps every change
// made after a file's ctime was read with a later ctime (Linux's
// multigrain timestamps, from 6.13, which ext4 keeps): a stat taken there
// can never be left as it is by a later change, so it is never racy. It is
// 0 where that is not known to hold: another file system (tmpfs, for one,
// stamps a directory with the time of the file removed or made, which a
// later change in the same tick leaves as it is), an older kernel, or a
// root that cannot be opened. Whole-second times (ext4 of 128-byte
// inodes) are judged by the racy rule whatever this says (see
// judge.racy).
func FineDev(root string) uint64 {
	if noFine || !multigrainKernel() {
		return 0
	}
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return 0
	}
	defer unix.Close(fd)
	var fs unix.Statfs_t
	var st unix.Stat_t
	if unix.Fstatfs(fd, &fs) != nil || fs.Type != unix.EXT4_SUPER_MAGIC || unix.Fstat(fd, &st) != nil {
		return 0
	}
	return st.Dev
}

// noFine turns FineDev off (for tests: the racy rule alone).
var noFine bool

var multigrain struct {
	once sync.Once
	ok   bool
}

// multigrainKernel reports whether the running kernel is Linux 6.13 or
// later, the first with multigrain timestamps.
func multigrainKernel() bool {
	multigrain.once.Do(func() {
		var u unix.Utsname
		if unix.Uname(&u) != nil {
			return
		}
		major, minor, i := 0, 0, 0
		rel := u.Release[:]
		for ; i < len(rel) && rel[i] >= '0' && rel[i] <= '9'; i++ {
			major = major*10 + int(rel[i]-'0')
		}
		if i >= len(rel) || rel[i] != '.' {
			return
		}
		for i++; i < len(rel) && rel[i] >= '0' && rel[i] <= '9'; i++ {
			minor = minor*10 + int(rel[i]-'0')
		}
		multigrain.ok = major > 6 || major == 6 && minor >= 13
	})
	return multigrain.ok
}
