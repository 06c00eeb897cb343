package corpus

import (
	"os"
	"strings"
	"syscall"

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
	name []byte // the name lstat hands fstatat, NUL-terminated
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
	fd, base, err := s.at(rel)
	if err != nil {
		return buf, false, err
	}
	return readHeadAt(fd, base, buf, done, nil)
}

// readHeadFileStat is [readHead] of the root-relative rel, opened relative
// to its directory, that also returns the [FileStat] of the file it read,
// taken with fstat before the read.
func (s *statter) readHeadFileStat(rel string, buf []byte, done func([]byte) bool) ([]byte, bool, FileStat, error) {
	fd, base, err := s.at(rel)
	if err != nil {
		return buf, false, FileStat{}, err
	}
	var fs FileStat
	buf, capped, err := readHeadAt(fd, base, buf, done, func(st *syscall.Stat_t) { fs = fileStat(st) })
	return buf, capped, fs, err
}

// lstat is the [FileStat] of the root-relative rel, not following a final
// symlink; ok is false when it cannot be had or rel is not a regular file.
func (s *statter) lstat(rel string) (FileStat, bool) {
	fd, base, err := s.at(rel)
	if err != nil {
		return FileStat{}, false
	}
	if strings.IndexByte(base, 0) >= 0 {
		return FileStat{}, false // no such name (the kernel would read it short)
	}
	s.name = append(append(s.name[:0], base...), 0)
	var st unix.Stat_t
	for {
		err := fstatat(fd, s.name, &st, unix.AT_SYMLINK_NOFOLLOW)
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
