//go:build windows

package digest

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// publish is the Windows fallback (renameio/v2 does not build there): the
// digest is written straight into an O_CREATE|O_EXCL final name, so it never
// overwrites another digest, but it is NOT atomic — a concurrent reader can
// see it partly written. A failed write removes the file.
func publish(dir, key string, data []byte, now time.Time) (string, error) {
	for range maxNameAttempts {
		name := newName(key, now)
		final := filepath.Join(dir, name)
		f, err := os.OpenFile(final, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", &WriteError{Op: "create", Path: final, Err: err}
		}
		_, werr := f.Write(data)
		if werr == nil {
			werr = f.Sync()
		}
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			os.Remove(final)
			return "", &WriteError{Op: "write", Path: final, Err: werr}
		}
		return name, nil
	}
	return "", &WriteError{Op: "publish", Path: dir, Err: fs.ErrExist}
}
