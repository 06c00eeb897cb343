//go:build !windows

package digest

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/google/renameio/v2"
)

// Seams for tests: the content write and the hard link.
var (
	writeFile = func(f *os.File, b []byte) (int, error) { return f.Write(b) }
	link      = os.Link
)

// publish writes data to a fsynced temporary file in dir and hard-links it to
// a fresh <key>.digest.<epoch>.<unique> name (EEXIST: draw a new name). The
// temporary file has a short fixed stem, ".digest.tmp" plus digits, so a long
// key does not overflow the name limit and stale leftovers match the reaper's
// *.digest.* pattern; it never starts with a key, so no reader selects it.
func publish(dir, key string, data []byte, now time.Time) (string, error) {
	pf, err := renameio.NewPendingFile(filepath.Join(dir, "digest.tmp"),
		renameio.WithTempDir(dir), renameio.WithStaticPermissions(0o600))
	if err != nil {
		return "", &WriteError{Op: "create", Path: dir, Err: err}
	}
	cleanup := true
	defer func() {
		if cleanup {
			pf.Cleanup()
		}
	}()
	if _, err := writeFile(pf.File, data); err != nil {
		return "", &WriteError{Op: "write", Path: pf.Name(), Err: err}
	}
	if err := pf.Sync(); err != nil {
		return "", &WriteError{Op: "write", Path: pf.Name(), Err: err}
	}
	for range maxNameAttempts {
		name := newName(key, now)
		final := filepath.Join(dir, name)
		err := link(pf.Name(), final)
		switch {
		case err == nil:
			return name, nil
		case errors.Is(err, fs.ErrExist):
			continue
		case errors.Is(err, syscall.EPERM), errors.Is(err, syscall.ENOTSUP), errors.Is(err, syscall.EOPNOTSUPP), errors.Is(err, syscall.EMLINK),
			errors.Is(err, syscall.ENOSYS):
			// No hard links here: reserve the name, then rename over the
			// reservation (ours, empty, skipped by readers).
			r, err := os.OpenFile(final, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
			if errors.Is(err, fs.ErrExist) {
				continue
			}
			if err != nil {
				return "", &WriteError{Op: "publish", Path: final, Err: err}
			}
			r.Close()
			if err := pf.File.Close(); err != nil {
				os.Remove(final)
				return "", &WriteError{Op: "publish", Path: final, Err: err}
			}
			if err := os.Rename(pf.Name(), final); err != nil {
				os.Remove(pf.Name())
				os.Remove(final)
				cleanup = false
				return "", &WriteError{Op: "publish", Path: final, Err: err}
			}
			cleanup = false
			return name, nil
		default:
			return "", &WriteError{Op: "publish", Path: final, Err: err}
		}
	}
	return "", &WriteError{Op: "publish", Path: dir, Err: fs.ErrExist}
}
