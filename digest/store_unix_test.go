//go:build !windows

package digest

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/proctest"
)

var errPerm = syscall.EPERM

// Under several umasks: the directory is 0700 and the file 0600 only
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

// Reversed on purpose (issue 3, hardening): upstream carries
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

// As non-root: the parent of the digest directory is not writable.
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

// Reap creates nothing, reaps only expired files, and refuses a directory
// another user owns; the zero Store does nothing and does not panic.
func TestReap(t *testing.T) {
	s := newStore(t)
	if err := s.Reap(); err != nil {
		t.Fatalf("Reap of a missing directory: %v", err)
	}
	if _, err := os.Stat(s.dir); !os.IsNotExist(err) {
		t.Fatalf("Reap created the directory (%v)", err)
	}
	s.now = func() time.Time { return t0 }
	plant(t, s, "a.digest.1.AAAAAA", "x\n", t0.Add(-73*time.Hour))
	plant(t, s, "a.digest.2.AAAAAA", "y\n", t0.Add(-71*time.Hour))
	if err := s.Reap(); err != nil {
		t.Fatal(err)
	}
	if got := digestFiles(t, s.dir); len(got) != 1 || got[0] != "a.digest.2.AAAAAA" {
		t.Fatalf("after Reap: %q", got)
	}
	var zero Store
	if err := zero.Reap(); err == nil {
		t.Error("the zero Store reaped")
	}
	if _, err := zero.Write("k", "GOAL: x"); err == nil {
		t.Error("the zero Store wrote")
	}
	if zero.List("k") != nil {
		t.Error("the zero Store listed")
	}
	if os.Geteuid() != 0 {
		return
	}
	plant(t, s, "a.digest.3.AAAAAA", "z\n", t0.Add(-100*time.Hour))
	if err := os.Chown(s.dir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := s.Reap(); !errors.Is(err, ErrInsecureDir) {
		t.Fatalf("Reap of another user's directory: %v, want ErrInsecureDir", err)
	}
	if got := digestFiles(t, s.dir); len(got) != 2 {
		t.Fatalf("Reap touched another user's directory: %q", got)
	}
}
