package digest

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/procedures-go/procedures/internal/fsx"
)

// checkChain refuses (ErrInsecureDir) a directory path that passes through a
// symlink owned by another user (root excepted), checking each existing
// component with Lstat from the top down: a "digests" link planted in a
// shared or foreign parent must never lead the writer into a directory of
// the user's own, to re-mode it, reap it or write into it. A symlink the
// user owns (a directory the user linked elsewhere, say) is followed. The
// first component that does not exist ends the check: what is missing is
// created by the user; one that cannot be examined is left for the
// caller's own open or mkdir to report.
func checkChain(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	vol := filepath.VolumeName(abs)
	p := vol + string(filepath.Separator)
	for _, c := range strings.Split(abs[len(p):], string(filepath.Separator)) {
		if c == "" {
			continue
		}
		p = filepath.Join(p, c)
		fi, err := os.Lstat(p)
		if err != nil {
			return nil // missing (created by the user) or unusable (mkdir says why)
		}
		if fi.Mode()&fs.ModeSymlink != 0 && !fsx.TrustedLink(fi) {
			return ErrInsecureDir
		}
	}
	return nil
}

// private reports whether the store's directory may be read or written: no
// foreign symlink on its path (see checkChain) and, links followed, a
// directory owned by the current user.
func (s *Store) private() error {
	if s.dir == "" { // the zero Store
		return &fs.PathError{Op: "open", Path: "", Err: fs.ErrInvalid}
	}
	if err := checkChain(s.dir); err != nil {
		return err
	}
	fi, err := os.Stat(s.dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() || !fsx.OwnedByMe(fi) {
		return ErrInsecureDir
	}
	return nil
}
