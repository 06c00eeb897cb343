package corpus

import (
	"bytes"
	"encoding/binary"
	"os"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/procedures-go/procedures/internal/fsx"
)

const haveStat = true

// statter stats the files below root with fstatat relative to their
// directory, keeping the last directory open: a run of files in one
// directory costs one open of it and one short lookup each, not a walk of
// the whole path.
type statter struct {
	root string
	dir  string // the open directory, as a root-relative prefix ending in "/"
	fd   int
	name []byte         // the name handed to fstatat or openat, NUL-terminated
	st   syscall.Stat_t // the last fstat of a file read
}

func newStatter(root string) *statter { return &statter{root: root, fd: -1} }

// at returns the descriptor of the root-relative rel's directory (the one
// kept open, or opened now in its place) and rel's last element.
func (s *statter) at(rel string) (int, string, error) {
	i := strings.LastIndexByte(rel, '/')
	dir, base := rel[:i+1], rel[i+1:]
	if dir != s.dir || s.fd < 0 {
		s.close()
		fd, err := openDir(joinRoot(s.root, dir))
		if err != nil {
			return -1, "", err
		}
		s.dir, s.fd = dir, fd
	}
	return s.fd, base, nil
}

// readHead is [readHead] of the root-relative rel, opened relative to its
// directory (a shorter lookup than the whole path's).
func (s *statter) readHead(rel string, buf []byte, done func([]byte) bool) ([]byte, bool, error) {
	fd, err := s.open(rel)
	if err != nil {
		return buf, false, err
	}
	return readOpened(fd, buf, done, &s.st)
}

// readHeadFileStat is [readHead] of the root-relative rel, opened relative
// to its directory, that also returns the [FileStat] of the file it read,
// taken with fstat before the read.
func (s *statter) readHeadFileStat(rel string, buf []byte, done func([]byte) bool) ([]byte, bool, FileStat, error) {
	fd, err := s.open(rel)
	if err != nil {
		return buf, false, FileStat{}, err
	}
	buf, capped, err := readOpened(fd, buf, done, &s.st)
	return buf, capped, fileStat(&s.st), err
}

// open opens the root-relative rel for readHead, relative to its
// directory, with the name handed to openat from s's reused buffer.
func (s *statter) open(rel string) (int, error) {
	dirfd, base, err := s.at(rel)
	if err != nil {
		return -1, err
	}
	name, ok := s.cname(base)
	if !ok {
		return -1, syscall.EINVAL // as unix.Openat says of such a name
	}
	for {
		fd, err := openat(dirfd, name, openHeadFlags)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// cname is base NUL-terminated in s's reused buffer; ok is false when base
// holds a NUL (the kernel would read it short: no such name).
func (s *statter) cname(base string) ([]byte, bool) {
	if strings.IndexByte(base, 0) >= 0 {
		return nil, false
	}
	s.name = append(append(s.name[:0], base...), 0)
	return s.name, true
}

// lstat is the [FileStat] of the root-relative rel, not following a final
// symlink; ok is false when it cannot be had or rel is not a regular file.
func (s *statter) lstat(rel string) (FileStat, bool) {
	fd, base, err := s.at(rel)
	if err != nil {
		return FileStat{}, false
	}
	name, ok := s.cname(base)
	if !ok {
		return FileStat{}, false
	}
	var st unix.Stat_t
	for {
		err := fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == unix.EINTR {
			continue
		}
		if err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
			return FileStat{}, false
		}
		break
	}
	return FileStat{
		Size: st.Size, MtimeNs: st.Mtim.Nano(), CtimeNs: st.Ctim.Nano(),
		Ino: st.Ino, Dev: st.Dev, Mode: st.Mode,
	}, true
}

func openDir(dir string) (int, error) {
	for {
		fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC|fsx.NonBlock, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

func (s *statter) close() {
	if s.fd >= 0 {
		syscall.Close(s.fd)
	}
	s.dir, s.fd = "", -1
}

// fileStat is the [FileStat] of st.
func fileStat(st *syscall.Stat_t) FileStat {
	return FileStat{Size: st.Size, MtimeNs: st.Mtim.Nano(), CtimeNs: st.Ctim.Nano(),
		Ino: st.Ino, Dev: uint64(st.Dev), Mode: st.Mode}
}

// openDirStat opens dir for listing (not following a final symlink unless
// follow) and returns its [FileStat], taken before any read.
func openDirStat(dir string, follow bool) (*os.File, FileStat, error) {
	flags := os.O_RDONLY | syscall.O_DIRECTORY | syscall.O_CLOEXEC | fsx.NonBlock
	if !follow {
		flags |= syscall.O_NOFOLLOW
	}
	f, err := os.OpenFile(dir, flags, 0)
	if err != nil {
		return nil, FileStat{}, err
	}
	var st unix.Stat_t
	for {
		err = unix.Fstat(int(f.Fd()), &st)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, FileStat{}, &os.PathError{Op: "fstat", Path: dir, Err: err}
	}
	return f, FileStat{Size: st.Size, MtimeNs: st.Mtim.Nano(), CtimeNs: st.Ctim.Nano(),
		Ino: st.Ino, Dev: st.Dev, Mode: st.Mode}, nil
}

// listBufMax bounds a listing buffer (a variable for tests).
var listBufMax = 4 << 20

// A dirent is one entry of a directory listing.
type dirent struct {
	name     string
	dir, reg bool
}

// listEntries lists the open directory f with getdents(2): its entries in
// directory order, "." and ".." left out. The names point into the
// buffers the kernel filled, each filled once and never written again, so
// a listing costs a few allocations, not two an entry as os.ReadDir's. An
// entry of unknown type is lstat-ed relative to f, as os.ReadDir does (one
// gone by then is left out). On an error it returns what it listed before.
func listEntries(f *os.File) ([]dirent, error) {
	fd := int(f.Fd())
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, err
	}
	// A kernel record is at most twice an ext4 entry: a buffer twice the
	// directory's size takes most listings in one call.
	size := min(max(2*int(st.Size)+4096, 32<<10), listBufMax)
	out := make([]dirent, 0, size/64)
	err := ReadDirents(fd, size, func(name []byte, _ uint64, dir, reg bool) {
		out = append(out, dirent{name: unsafe.String(unsafe.SliceData(name), len(name)), dir: dir, reg: reg})
	})
	return out, err
}

// ReadDirents lists the open directory fd with getdents(2) into buffers of
// size bytes, calling fn with each entry in directory order ("." and ".."
// left out): its name, inode number and whether it is a directory or a
// regular file. A name points into a buffer that is filled once and never
// written again, so it may be kept. An entry of unknown type is lstat-ed
// relative to fd, as os.ReadDir does (one gone by then is left out). On an
// error fn has seen what was listed before it.
func ReadDirents(fd, size int, fn func(name []byte, ino uint64, dir, reg bool)) error {
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
			return err
		}
		if n <= 0 {
			return nil
		}
		b := buf[used : used+n]
		used += n
		for len(b) >= 19 {
			reclen := int(binary.NativeEndian.Uint16(b[16:18]))
			if reclen < 19 || reclen > len(b) {
				return syscall.EIO
			}
			ino := binary.NativeEndian.Uint64(b[0:8])
			typ := b[18]
			name := b[19:reclen]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			b = b[reclen:]
			if len(name) == 0 || string(name) == "." || string(name) == ".." || ino == 0 {
				continue
			}
			if typ == unix.DT_UNKNOWN {
				var lst unix.Stat_t
				if unix.Fstatat(fd, string(name), &lst, unix.AT_SYMLINK_NOFOLLOW) != nil {
					continue
				}
				switch lst.Mode & unix.S_IFMT {
				case unix.S_IFDIR:
					typ = unix.DT_DIR
				case unix.S_IFREG:
					typ = unix.DT_REG
				}
			}
			fn(name, ino, typ == unix.DT_DIR, typ == unix.DT_REG)
		}
	}
}
