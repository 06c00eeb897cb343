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
	return withPending(path, data, func(pf *renameio.PendingFile) error {
		err := link(pf.Name(), path)
		switch {
		case err == nil, errors.Is(err, fs.ErrExist):
			return err
		case errors.Is(err, syscall.EPERM), errors.Is(err, syscall.ENOTSUP), errors.Is(err, syscall.EOPNOTSUPP),
			errors.Is(err, syscall.EMLINK), errors.Is(err, syscall.ENOSYS), errors.Is(err, syscall.EXDEV):
			return createInPlace(path, data)
		default:
			return err
		}
	})
}

// Replace writes data to path atomically: a fsynced temporary file in the
// same directory is renamed over path, so path holds either its old content
// or data, never a part of it. An existing file keeps its permissions.
func Replace(path string, data []byte) error {
	return withPending(path, data, (*renameio.PendingFile).CloseAtomicallyReplace)
}

// withPending writes data to a fsynced temporary file in path's directory
// and hands it to finish (which links or renames it into place); the
// temporary file is removed whatever happens.
func withPending(path string, data []byte, finish func(*renameio.PendingFile) error) error {
	pf, err := renameio.NewPendingFile(path, renameio.WithTempDir(filepath.Dir(path)),
		renameio.WithPermissions(0o666), renameio.WithExistingPermissions())
	if err != nil {
		return err
	}
	defer pf.Cleanup()
	if _, err := writeData(pf.File, data); err != nil {
		return err
	}
	if err := pf.Sync(); err != nil {
		return err
	}
	return finish(pf)
}

// nonblock keeps opening mistakes.jsonl from waiting on a FIFO.
const nonblock = syscall.O_NONBLOCK
