//go:build !linux

package corpus

import (
	"errors"
	"os"
)

const haveStat = false

type statter struct{}

func newStatter(string) *statter               { return &statter{} }
func (*statter) lstat(string) (FileStat, bool) { return FileStat{}, false }
func (*statter) close()                        {}

func readHeadFileStat(name string, buf []byte, done func([]byte) bool) ([]byte, bool, FileStat, error) {
	buf, capped, err := readHead(name, buf, done)
	return buf, capped, FileStat{}, err
}

func openDirStat(dir string, follow bool) (*os.File, FileStat, error) {
	return nil, FileStat{}, errors.ErrUnsupported
}
