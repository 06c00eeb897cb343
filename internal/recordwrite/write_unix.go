//go:build !windows

package recordwrite

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/google/renameio/v2"
)

// Seams for tests: the content write of a record file, and the hard link.
var (
	writeData = func(f *os.File, b []byte) (int, error) { return f.Write(b) }
	link      = os.Link
)

// Create writes data to a new file at path and never replaces an existing
// one, even against a concurrent writer: the data goes to a fsynced
// temporary file in the same directory, which is then hard-linked to path
// (the link fails if path exists). Where hard links are not supported, path
// is created exclusively and written in place. An existing path is
// reported as an error matching fs.ErrExist.
func Create(path string, data []byte) error {
	pf, err := pending(path)
	if err != nil {
		return err
	}
	defer pf.Cleanup()
	if err := fill(pf, data); err != nil {
		return err
	}
	err = link(pf.Name(), path)
	switch {
	case err == nil, errors.Is(err, fs.ErrExist):
		return err
	case errors.Is(err, syscall.EPERM), errors.Is(err, syscall.ENOTSUP), errors.Is(err, syscall.EOPNOTSUPP),
		errors.Is(err, syscall.EMLINK), errors.Is(err, syscall.ENOSYS), errors.Is(err, syscall.EXDEV):
		return createInPlace(path, data)
	default:
		return err
	}
}

// Replace writes data to path atomically: a fsynced temporary file in the
// same directory is renamed over path, so path holds either its old content
// or data, never a part of it. An existing file keeps its permissions.
func Replace(path string, data []byte) error {
	pf, err := pending(path)
	if err != nil {
		return err
	}
	defer pf.Cleanup()
	if err := fill(pf, data); err != nil {
		return err
	}
	return pf.CloseAtomicallyReplace()
}

func pending(path string) (*renameio.PendingFile, error) {
	return renameio.NewPendingFile(path, renameio.WithTempDir(filepath.Dir(path)),
		renameio.WithPermissions(0o666), renameio.WithExistingPermissions())
}

func fill(pf *renameio.PendingFile, data []byte) error {
	if _, err := writeData(pf.File, data); err != nil {
		return err
	}
	return pf.Sync()
}
