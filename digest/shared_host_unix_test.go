//go:build !windows

package digest

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
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

// The turn-state directory rule: $TURN_STATE_DIR as given; else the shared
// default when it is missing or a real directory of the current user; else
// the per-user default-<uid> (a file, a symlink, another user's directory).
func TestTurnStateDir(t *testing.T) {
	base := t.TempDir()
	def := filepath.Join(base, "claude-turn-state")
	perUser := def + "-" + strconv.Itoa(os.Geteuid())
	noEnv := func(string) string { return "" }

	if got := TurnStateDirFrom(func(k string) string {
		if k == "TURN_STATE_DIR" {
			return "/x/ts"
		}
		return ""
	}, def); got != "/x/ts" {
		t.Errorf("TURN_STATE_DIR set: %q", got)
	}
	if got := TurnStateDirFrom(noEnv, def); got != def {
		t.Errorf("default missing: %q, want %q", got, def)
	}
	if err := os.Mkdir(def, 0o700); err != nil {
		t.Fatal(err)
	}
	if got := TurnStateDirFrom(noEnv, def); got != def {
		t.Errorf("default is my directory: %q, want %q", got, def)
	}
	os.Remove(def)
	os.WriteFile(def, nil, 0o600)
	if got := TurnStateDirFrom(noEnv, def); got != perUser {
		t.Errorf("default is a file: %q, want %q", got, perUser)
	}
	os.Remove(def)
	mine := filepath.Join(base, "mine")
	os.Mkdir(mine, 0o700)
	os.Symlink(mine, def)
	if got := TurnStateDirFrom(noEnv, def); got != perUser {
		t.Errorf("default is a symlink: %q, want %q", got, perUser)
	}
	if got := TurnStateDir(func(k string) string {
		if k == "TURN_STATE_DIR" {
			return "/y"
		}
		return ""
	}); got != "/y" {
		t.Errorf("TurnStateDir with TURN_STATE_DIR: %q", got)
	}
	if got := FromEnv(func(k string) string {
		if k == "TURN_STATE_DIR" {
			return "/y"
		}
		return ""
	}).Dir; got != "/y/digests" {
		t.Errorf("FromEnv digest dir: %q", got)
	}
}

func TestTurnStateDirForeignOwned(t *testing.T) {
	needRoot(t)
	def := filepath.Join(t.TempDir(), "claude-turn-state")
	if err := os.Mkdir(def, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(def, foreign, foreign); err != nil {
		t.Fatal(err)
	}
	want := def + "-" + strconv.Itoa(os.Geteuid())
	if got := TurnStateDirFrom(func(string) string { return "" }, def); got != want {
		t.Errorf("default owned by another user: %q, want %q", got, want)
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
	if err := os.Chown(s.Dir, foreign, foreign); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := s.Read("s1", &out); err != nil || out.Len() != 0 {
		t.Fatalf("replayed a directory owned by another user: %q, %v", out.String(), err)
	}
	// ...nor one reached through a symlink another user owns.
	os.Chown(s.Dir, 0, 0)
	parent := filepath.Join(t.TempDir(), "shared")
	os.Mkdir(parent, 0o777)
	link := filepath.Join(parent, "digests")
	if err := os.Symlink(s.Dir, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(link, foreign, foreign); err != nil {
		t.Fatal(err)
	}
	r := &Store{Dir: link, Keep: DefaultKeep, TTLDays: DefaultTTLDays}
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
	s := FromEnv(func(k string) string {
		if k == "TURN_STATE_DIR" {
			return shared
		}
		return ""
	})
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

// Issue 18, shared host: the per-user fallback is used only when it is a
// real directory of the current user that neither group nor others may
// write. Another user pre-creating it (0777, their own), a group- or
// other-writable one of mine, or a symlink, is refused: CheckTurnStateDirFrom
// names it with ErrUntrustedTurnStateDir (the hooks then fail open), and
// the digest store of FromEnv writes and replays nothing there.
func TestTurnStateFallbackMustBePrivate(t *testing.T) {
	base := t.TempDir()
	def := filepath.Join(base, "claude-turn-state")
	fb := def + "-" + strconv.Itoa(os.Geteuid())
	noEnv := func(string) string { return "" }
	if err := os.WriteFile(def, []byte("planted"), 0o644); err != nil { // the default is unusable
		t.Fatal(err)
	}
	check := func(what string, wantErr bool) {
		t.Helper()
		dir, err := CheckTurnStateDirFrom(noEnv, def)
		if dir != fb || errors.Is(err, ErrUntrustedTurnStateDir) != wantErr {
			t.Errorf("%s: %q, %v; want %q, untrusted=%v", what, dir, err, fb, wantErr)
		}
	}
	check("fallback missing", false)
	os.Mkdir(fb, 0o700)
	check("fallback mine, 0700", false)
	os.Chmod(fb, 0o755)
	check("fallback mine, 0755", false)
	os.Chmod(fb, 0o777)
	check("fallback mine, 0777", true)
	os.Chmod(fb, 0o770)
	check("fallback mine, group-writable", true)
	os.Remove(fb)
	other := filepath.Join(base, "other")
	os.Mkdir(other, 0o700)
	os.Symlink(other, fb)
	check("fallback a symlink", true)
	os.Remove(fb)
	os.WriteFile(fb, nil, 0o600)
	check("fallback a file", true)
	os.Remove(fb)
	if os.Geteuid() == 0 {
		os.Mkdir(fb, 0o777)
		os.Chmod(fb, 0o777)
		os.Chown(fb, foreign, foreign)
		check("fallback another user's 0777", true)
		os.Chmod(fb, 0o755)
		check("fallback another user's 0755", true)
		os.Chmod(fb, 0o777)
	} else {
		os.Mkdir(fb, 0o777)
		os.Chmod(fb, 0o777)
	}
	// FromEnv's digest store refuses the untrusted fallback.
	s := fromEnvWithDefault(noEnv, def)
	if _, err := s.Write("s1", "GOAL: x"); !errors.Is(err, ErrInsecureDir) {
		t.Errorf("digest Write into an untrusted fallback: %v, want ErrInsecureDir", err)
	}
	if _, err := os.Stat(filepath.Join(fb, "digests")); err == nil {
		t.Error("created digests/ in an untrusted fallback")
	}
}
