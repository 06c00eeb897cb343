//go:build unix

package evidence

import (
	"os"
	"path/filepath"
)

// The next cache file is made beside the last (0600, never the mode of
// what was there: that may be a foreign file being replaced) and renamed
// over it once written: atomic, but not waited for on the disk (no
// fsync). After a crash the file may be the old one or a torn new one;
// every part of it is checksummed, so a torn one is rebuilt.

// newCacheFile makes the next cache file for p.
func newCacheFile(p string) (*os.File, error) {
	f, err := os.CreateTemp(filepath.Dir(p), ".evidence-*.tmp")
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(0o600); err != nil {
		abortCache(f)
		return nil, err
	}
	return f, nil
}

// commitCache puts the written file f in place of p.
func commitCache(f *os.File, p string) error {
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), p); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// abortCache drops a file not written whole.
func abortCache(f *os.File) {
	f.Close()
	os.Remove(f.Name())
}
