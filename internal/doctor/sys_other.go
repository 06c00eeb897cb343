//go:build !unix

package doctor

import (
	"errors"
	"io/fs"
	"os"
)

// owner is unknown where files have no uid.
func owner(fs.FileInfo) (int, bool) { return 0, false }

// ownedByMe cannot check ownership without uids: a file is taken as the
// user's own, as the digest store takes it.
func ownedByMe(fs.FileInfo) bool { return true }

const (
	accessW = 0x2
	accessX = 0x1
)

// access approximates access(2) from the mode bits: a file or directory
// whose write bit is clear is read-only.
func access(path string, mode uint32) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if mode&accessW != 0 && fi.Mode().Perm()&0o200 == 0 {
		return &fs.PathError{Op: "access", Path: path, Err: errors.New("read-only")}
	}
	return nil
}
