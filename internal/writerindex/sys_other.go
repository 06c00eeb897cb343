//go:build !linux

package writerindex

import (
	"errors"

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

func statDir(string, bool) (dirStat, bool)          { return dirStat{}, false }
func lstatFile(string) (corpus.FileStat, bool)      { return corpus.FileStat{}, false }
func listDir(string, bool) ([]dent, dirStat, error) { return nil, dirStat{}, errors.ErrUnsupported }
func lockDir(string) (func(), error)                { return nil, errors.ErrUnsupported }
