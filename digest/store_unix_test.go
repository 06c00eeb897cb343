//go:build !windows

package digest

import (
	"errors"
	"github.com/procedures-go/procedures/internal/proctest"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

var errPerm = syscall.EPERM

// DG-10 under several umasks: the directory is 0700 and the file 0600 only
// because the code sets them; a parent the write had to create has the
// mkdir -p mode 0777 &^ umask and is never chmodded (2.3).
func TestModesUnderUmask(t *testing.T) {
	for _, mask := range []int{0o000, 0o022, 0o077} {
		old := syscall.Umask(mask)
		s := newStore(t)
		name, err := s.Write("s1", "GOAL: x")
		syscall.Umask(old)
		if err != nil {
			t.Fatal(err)
		}
		checkMode(t, s.dir, 0o700)
		checkMode(t, filepath.Join(s.dir, name), 0o600)
		checkMode(t, filepath.Dir(s.dir), os.FileMode(0o777&^mask))
	}
}

// DG-11, reversed on purpose (issue 3, spec 9.1 hardening): upstream carries
// on after a failed chmod of a foreign-owned directory; here a digest
// directory owned by another account is refused with ErrInsecureDir and left
// untouched. Needs root to stage (chown).
func TestForeignOwnedDirRefused(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("staging a foreign-owned directory needs root")
	}
	s := newStore(t)
	if err := os.MkdirAll(s.dir, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(s.dir, 0o777)
	if err := os.Chown(s.dir, 65534, 65534); err != nil {
		t.Skip("chown:", err)
	}
	_, err := s.Write("s1", "GOAL: x")
	var we *WriteError
	if !errors.As(err, &we) || !errors.Is(err, ErrInsecureDir) {
		t.Fatalf("Write into a foreign-owned dir: %v, want ErrInsecureDir", err)
	}
	if got := digestFiles(t, s.dir); len(got) != 0 {
		t.Fatalf("wrote %q into a foreign-owned dir", got)
	}
	checkMode(t, s.dir, 0o777)
}

// DG-12 as non-root: the parent of the digest directory is not writable.
func TestParentNotWritable(t *testing.T) {
	if proctest.RunUnprivileged(t) {
		return // root ignores directory permissions: ran as a non-root user in a child
	}
	s := newStore(t)
	parent := filepath.Dir(s.dir)
	os.MkdirAll(parent, 0o755)
	os.Chmod(parent, 0o500)
	defer os.Chmod(parent, 0o755)
	if _, err := s.Write("s1", "GOAL: x"); err == nil {
		t.Fatal("Write under a read-only parent succeeded")
	}
}
