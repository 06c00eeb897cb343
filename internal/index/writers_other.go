//go:build !linux

package index

import (
	"errors"
	"os"

	"github.com/procedures-go/procedures/internal/corpus"
)

// haveWriters is false: without fstatat's fields and the directory
// entries' inode numbers the writers read the corpus as without an index.
const haveWriters = false

type dent struct {
	name     []byte
	ino      uint64
	dir, reg bool
}

func mapFile(f *os.File, size int64) ([]byte, func(), error) {
	b, err := readFile(f, size)
	return b, func() {}, err
}
func statDir(string, bool) (dirStat, bool)          { return dirStat{}, false }
func lstatFile(string) (corpus.FileStat, bool)      { return corpus.FileStat{}, false }
func listDir(string, bool) ([]dent, dirStat, error) { return nil, dirStat{}, errors.ErrUnsupported }
func lockDir(string) (func(), error)                { return nil, errors.ErrUnsupported }
