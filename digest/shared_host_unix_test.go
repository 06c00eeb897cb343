//go:build !windows

package digest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// foreign is the account that owns what "another user" planted; staging it
// needs root (chown), as CI runs.
const foreign = 65534

func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("staging another user's directory needs root (chown); CI runs as root")
	}
}

// The reader never replays a directory another user owns: nothing is
// printed, like a cold start.
func TestReadRefusesForeignDir(t *testing.T) {
	needRoot(t)
	s := newStore(t)
	if _, err := s.Write("s1", "GOAL: planted"); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	s.Read("s1", &out)
	if !strings.Contains(out.String(), "GOAL: planted") {
		t.Fatalf("own directory not replayed: %q", out.String())
	}
	if err := os.Chown(s.dir, foreign, foreign); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := s.Read("s1", &out); err != nil || out.Len() != 0 {
		t.Fatalf("replayed a directory owned by another user: %q, %v", out.String(), err)
	}
	// ...nor one reached through a symlink another user owns.
	os.Chown(s.dir, 0, 0)
	parent := filepath.Join(t.TempDir(), "shared")
	os.Mkdir(parent, 0o777)
	link := filepath.Join(parent, "digests")
	if err := os.Symlink(s.dir, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(link, foreign, foreign); err != nil {
		t.Fatal(err)
	}
	r := &Store{dir: link, keep: defaultKeep, ttl: defaultTTL, now: time.Now}
	out.Reset()
	if r.Read("s1", &out); out.Len() != 0 {
		t.Fatalf("replayed through another user's symlink: %q", out.String())
	}
}

// A "digests" symlink that another user planted in a directory they own,
// pointing at a directory of the current user, is never followed: the
// victim directory keeps its mode, its *.digest.* files are not reaped and
// nothing is written into it. A symlink the user owns still works.
func TestWriteRefusesPlantedSymlink(t *testing.T) {
	needRoot(t)
	base := t.TempDir()
	victim := filepath.Join(base, "victim")
	if err := os.Mkdir(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(victim, 0o755)
	stale := filepath.Join(victim, "old.digest.1.AAAAAA")
	os.WriteFile(stale, []byte("mine\n"), 0o644)
	old := time.Now().Add(-1000 * time.Hour)
	os.Chtimes(stale, old, old)

	shared := filepath.Join(base, "shared") // TURN_STATE_DIR, owned by another user
	os.Mkdir(shared, 0o777)
	os.Chmod(shared, 0o777)
	link := filepath.Join(shared, "digests")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(link, foreign, foreign); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(shared, foreign, foreign); err != nil {
		t.Fatal(err)
	}
	s, _ := Open(link, Options{}) // as the hooks open <TURN_STATE_DIR>/digests
	_, err := s.Write("s1", "GOAL: x")
	if !errors.Is(err, ErrInsecureDir) {
		t.Fatalf("Write through a planted symlink: %v, want ErrInsecureDir", err)
	}
	checkMode(t, victim, 0o755)
	if _, err := os.Stat(stale); err != nil {
		t.Fatalf("reaped the victim's digest: %v", err)
	}
	if got := digestFiles(t, victim); len(got) != 1 {
		t.Fatalf("wrote into the victim directory: %q", got)
	}

	// The same link owned by the user (an explicit SESSION_DIGEST_DIR
	// symlink) is followed.
	if err := os.Lchown(link, os.Geteuid(), os.Getegid()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Write("s1", "GOAL: x"); err != nil {
		t.Fatalf("Write through the user's own symlink: %v", err)
	}
	checkMode(t, victim, 0o700)
}
