//go:build !linux

package corpus

import (
	"errors"
	"os"
)

const haveStat = false

// statter reads the files below root by their whole path (no stat here).
type statter struct{ root string }

func newStatter(root string) *statter          { return &statter{root: root} }
func (*statter) lstat(string) (FileStat, bool) { return FileStat{}, false }
func (*statter) close()                        {}

func (s *statter) readHead(rel string, buf []byte, done func([]byte) bool) ([]byte, bool, error) {
	return readHead(joinRoot(s.root, rel), buf, done)
}

func (s *statter) readHeadFileStat(rel string, buf []byte, done func([]byte) bool) ([]byte, bool, FileStat, error) {
	buf, capped, err := s.readHead(rel, buf, done)
	return buf, capped, FileStat{}, err
}

func openDirStat(dir string, follow bool) (*os.File, FileStat, error) {
	return nil, FileStat{}, errors.ErrUnsupported
}

type dirent struct {
	name     string
	dir, reg bool
}

func listEntries(*os.File) ([]dirent, error) { return nil, errors.ErrUnsupported }
