//go:build windows

package fsx

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// CreateExclusive is the Windows fallback (renameio/v2 does not build
// there): the final name is created with O_CREATE|O_EXCL and written in
// place, so it never replaces an existing file, but it is NOT atomic — a
// concurrent reader can see it partly written. A failed write removes the
// file; a collision draws a new name, up to o.Attempts.
func (o File) CreateExclusive(dir string, name func() string, data []byte) (string, error) {
	for i := range o.attempts() {
		base := name()
		err := o.createInPlace(filepath.Join(dir, base), data)
		if errors.Is(err, fs.ErrExist) && i < o.attempts()-1 {
			continue
		}
		if err != nil {
			return "", err
		}
		return base, nil
	}
	panic("unreachable")
}

// Replace is the Windows fallback: data is written to a temporary file in
// the same directory, which is then renamed over path (MoveFileEx: not
// guaranteed atomic).
func (o File) Replace(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp")
	if err != nil {
		return stepErr("create", path, err)
	}
	err = o.writeSyncClose(f, data)
	if err != nil {
		os.Remove(f.Name())
		return stepErr("write", f.Name(), err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return stepErr("publish", path, err)
	}
	return nil
}
