package writerindex

import (
	"golang.org/x/sys/unix"

	"github.com/procedures-go/procedures/internal/cachefile"
	"github.com/procedures-go/procedures/internal/corpus"
)

// haveWriters reports whether the writers' index can be kept here: it
// needs fstatat's fields and the directory entries' inode numbers.
const haveWriters = true

// dent is one directory entry the walk looks at; name points into the
// listing's buffer.
type dent struct {
	name     []byte
	ino      uint64
	dir, reg bool
}

func statDir(name string, follow bool) (dirStat, bool) {
	var st unix.Stat_t
	flags := 0
	if !follow {
		flags = unix.AT_SYMLINK_NOFOLLOW
	}
	for {
		err := unix.Fstatat(unix.AT_FDCWD, name, &st, flags)
		if err == unix.EINTR {
			continue
		}
		if err != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
			return dirStat{}, false
		}
		return viewDir(dirStat{Dev: st.Dev, Ino: st.Ino, MtimeNs: st.Mtim.Nano(), CtimeNs: st.Ctim.Nano()}), true
	}
}

func lstatFile(name string) (corpus.FileStat, bool) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(unix.AT_FDCWD, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == unix.EINTR {
			continue
		}
		if err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
			return corpus.FileStat{}, false
		}
		return cachefile.View(corpus.FileStat{Size: st.Size, MtimeNs: st.Mtim.Nano(), CtimeNs: st.Ctim.Nano(),
			Ino: st.Ino, Dev: st.Dev, Mode: st.Mode}), true
	}
}

// maxListBuf bounds listDir's buffer (a variable for tests).
var maxListBuf int64 = 4 << 20

// listDir lists directory name (following a final symlink only when
// follow) with its stat taken on the open descriptor before the listing:
// its entries in directory order, "." and ".." left out. An
// entry of unknown type is lstat-ed, as os.ReadDir does.
func listDir(name string, follow bool) ([]dent, dirStat, error) {
	flags := unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC | unix.O_NONBLOCK
	if !follow {
		flags |= unix.O_NOFOLLOW
	}
	var fd int
	var err error
	for {
		fd, err = unix.Open(name, flags, 0)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return nil, dirStat{}, err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, dirStat{}, err
	}
	ds := viewDir(dirStat{Dev: st.Dev, Ino: st.Ino, MtimeNs: st.Mtim.Nano(), CtimeNs: st.Ctim.Nano()})
	// Buffers sized from the directory's size (a kernel record is at most
	// twice an ext4 entry); names point into them.
	size := min(max(2*st.Size+4096, 32<<10), maxListBuf)
	out := make([]dent, 0, size/40)
	if err := corpus.ReadDirents(fd, int(size), func(name []byte, ino uint64, dir, reg bool) {
		out = append(out, dent{name: name, ino: ino, dir: dir, reg: reg})
	}); err != nil {
		return nil, dirStat{}, err
	}
	return out, ds, nil
}

// lockDir takes the exclusive lock of the cache directory dir's lock file
// (made 0600 if missing, never through a symlink); unlock releases it.
func lockDir(dir string) (unlock func(), err error) {
	fd, err := unix.Open(dir+"/.lock", unix.O_RDWR|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err = unix.Flock(fd, unix.LOCK_EX)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		unix.Close(fd)
		return nil, err
	}
	return func() { unix.Close(fd) }, nil
}
