package index

import (
	"encoding/binary"
	"os"
	"syscall"

	"golang.org/x/sys/unix"

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
		return dirStat{Dev: st.Dev, Ino: st.Ino, MtimeNs: st.Mtim.Nano(), CtimeNs: st.Ctim.Nano()}, true
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
		return corpus.FileStat{Size: st.Size, MtimeNs: st.Mtim.Nano(), CtimeNs: st.Ctim.Nano(),
			Ino: st.Ino, Dev: st.Dev, Mode: st.Mode}, true
	}
}

// mapFile maps the size bytes of f read-only, so that the index's blocks
// are read from the page cache in place rather than copied (the file is
// replaced by rename, never written in place); unmap releases the mapping.
// A file that cannot be mapped is read.
func mapFile(f *os.File, size int64) (b []byte, unmap func(), err error) {
	if size > 0 {
		if b, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_PRIVATE|unix.MAP_POPULATE); err == nil {
			return b, func() { unix.Munmap(b) }, nil
		}
	}
	b, err = readFile(f, size)
	return b, func() {}, err
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
	ds := dirStat{Dev: st.Dev, Ino: st.Ino, MtimeNs: st.Mtim.Nano(), CtimeNs: st.Ctim.Nano()}
	// One buffer, sized from the directory's size (a kernel record is at
	// most twice an ext4 entry), is filled call after call; names point
	// into it, so a full one is replaced, never reused.
	size := min(max(2*st.Size+4096, 32<<10), maxListBuf)
	out := make([]dent, 0, size/40)
	buf, used := make([]byte, size), 0
	for {
		if len(buf)-used < 4096 {
			buf, used = make([]byte, size), 0
		}
		n, err := unix.Getdents(fd, buf[used:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, dirStat{}, err
		}
		if n <= 0 {
			break
		}
		b := buf[used : used+n]
		used += n
		for len(b) >= 19 {
			reclen := int(binary.NativeEndian.Uint16(b[16:18]))
			if reclen < 19 || reclen > len(b) {
				return nil, dirStat{}, syscall.EIO
			}
			ino := binary.NativeEndian.Uint64(b[0:8])
			typ := b[18]
			nb := b[19:reclen]
			for i, c := range nb {
				if c == 0 {
					nb = nb[:i]
					break
				}
			}
			b = b[reclen:]
			if string(nb) == "." || string(nb) == ".." || ino == 0 {
				continue
			}
			if typ == unix.DT_UNKNOWN {
				var lst unix.Stat_t
				if unix.Fstatat(fd, string(nb), &lst, unix.AT_SYMLINK_NOFOLLOW) != nil {
					continue
				}
				switch lst.Mode & unix.S_IFMT {
				case unix.S_IFDIR:
					typ = unix.DT_DIR
				case unix.S_IFREG:
					typ = unix.DT_REG
				}
			}
			out = append(out, dent{name: nb, ino: ino, dir: typ == unix.DT_DIR, reg: typ == unix.DT_REG})
		}
	}

	return out, ds, nil
}
