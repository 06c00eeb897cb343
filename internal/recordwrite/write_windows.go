//go:build windows

package recordwrite

import (
	"os"
	"path/filepath"
)

// Create is the Windows fallback (renameio/v2 does not build there): path
// is created exclusively and written in place, so it never replaces an
// existing file, but it is NOT atomic — a concurrent reader can see it
// partly written. An existing path is reported as an error matching
// fs.ErrExist.
func Create(path string, data []byte) error { return createInPlace(path, data) }

// Replace is the Windows fallback: data is written to a temporary file in
// the same directory, which is then renamed over path.
func Replace(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp")
	if err != nil {
		return err
	}
	err = writeSyncClose(f, data)
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// nonblock: no FIFOs to guard against here.
const nonblock = 0
