//go:build unix

package evidence

import "github.com/google/renameio/v2"

// writeCache replaces the cache file atomically with a 0600 file (never
// the mode of what was there: that may be a foreign file being replaced).
func writeCache(p string, b []byte) error {
	t, err := renameio.NewPendingFile(p, renameio.WithStaticPermissions(0o600))
	if err != nil {
		return err
	}
	defer t.Cleanup()
	if _, err := t.Write(b); err != nil {
		return err
	}
	return t.CloseAtomicallyReplace()
}
