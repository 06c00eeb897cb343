//go:build !windows

package turnstate

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/digest"
	"github.com/procedures-go/procedures/internal/config"
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

// resolvePath is the directory ResolveDir picks with TURN_STATE_DIR set to
// set ("" unset).
func resolvePath(set, def string) string {
	return ResolveDir(set, def).Path
}

// digestsWithDefault is OpenDigests with def as the default turn-state
// directory and no variable set.
func digestsWithDefault(t *testing.T, def string) Digests {
	t.Helper()
	s, err := openDigests(config.TurnState{}, config.DigestFrom(nil), def)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The turn-state directory rule: $TURN_STATE_DIR as given; else the shared
// default when it is missing or a real directory of the current user; else
// the per-user default-<uid> (a file, a symlink, another user's directory).
func TestTurnStateDir(t *testing.T) {
	base := t.TempDir()
	def := filepath.Join(base, "claude-turn-state")
	perUser := def + "-" + strconv.Itoa(os.Geteuid())
	const noEnv = ""

	if got := resolvePath("/x/ts", def); got != "/x/ts" {
		t.Errorf("TURN_STATE_DIR set: %q", got)
	}
	if got := resolvePath(noEnv, def); got != def {
		t.Errorf("default missing: %q, want %q", got, def)
	}
	if err := os.Mkdir(def, 0o700); err != nil {
		t.Fatal(err)
	}
	if got := resolvePath(noEnv, def); got != def {
		t.Errorf("default is my directory: %q, want %q", got, def)
	}
	os.Remove(def)
	os.WriteFile(def, nil, 0o600)
	if got := resolvePath(noEnv, def); got != perUser {
		t.Errorf("default is a file: %q, want %q", got, perUser)
	}
	os.Remove(def)
	mine := filepath.Join(base, "mine")
	os.Mkdir(mine, 0o700)
	os.Symlink(mine, def)
	if got := resolvePath(noEnv, def); got != perUser {
		t.Errorf("default is a symlink: %q, want %q", got, perUser)
	}
	if got := New(config.TurnState{Dir: "/y"}).Dir; got != "/y" {
		t.Errorf("New with TURN_STATE_DIR: %q", got)
	}
	ds, err := OpenDigests(config.TurnState{Dir: "/y"}, config.DigestFrom(nil))
	if err != nil || ds.Dir() != "/y/digests" {
		t.Errorf("OpenDigests digest dir: %q, %v", ds.Dir(), err)
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
	if got := resolvePath("", def); got != want {
		t.Errorf("default owned by another user: %q, want %q", got, want)
	}
}

// Issue 18, shared host: the per-user fallback is used only when it is a
// real directory of the current user that neither group nor others may
// write. Another user pre-creating it (0777, their own), a group- or
// other-writable one of mine, or a symlink, is refused: ResolveDir
// names it with ErrUntrusted (the hooks then fail open), and
// the hooks' digest store writes and replays nothing there.
func TestTurnStateFallbackMustBePrivate(t *testing.T) {
	base := t.TempDir()
	def := filepath.Join(base, "claude-turn-state")
	fb := def + "-" + strconv.Itoa(os.Geteuid())
	if err := os.WriteFile(def, []byte("planted"), 0o644); err != nil { // the default is unusable
		t.Fatal(err)
	}
	check := func(what string, wantErr bool) {
		t.Helper()
		d := ResolveDir("", def)
		if dir, err := d.Path, d.Err; dir != fb || errors.Is(err, ErrUntrusted) != wantErr {
			t.Errorf("%s: %q, %v; want %q, untrusted=%v", what, d.Path, d.Err, fb, wantErr)
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
	// The hooks' digest store refuses the untrusted fallback.
	s := digestsWithDefault(t, def)
	if _, err := s.Write("s1", "GOAL: x"); !errors.Is(err, digest.ErrInsecureDir) {
		t.Errorf("digest Write into an untrusted fallback: %v, want ErrInsecureDir", err)
	}
	if _, err := os.Stat(filepath.Join(fb, "digests")); err == nil {
		t.Error("created digests/ in an untrusted fallback")
	}
}

// The hooks' digest store creates the per-user fallback it lives in only
// when it stores a digest, and then private (0700), never as mkdir -p would.
func TestDigestsCreateFallbackOnlyToStore(t *testing.T) {
	def := filepath.Join(t.TempDir(), "claude-turn-state")
	if err := os.WriteFile(def, nil, 0o644); err != nil { // the default is unusable
		t.Fatal(err)
	}
	fb := def + "-" + strconv.Itoa(os.Geteuid())
	s := digestsWithDefault(t, def)
	if s.Dir() != fb+"/digests" {
		t.Fatalf("digest dir %q, want %q", s.Dir(), fb+"/digests")
	}
	if name, err := s.Write("s1", " \n\t"); name != "" || err != nil {
		t.Fatalf("whitespace digest: %q, %v", name, err)
	}
	if _, err := os.Lstat(fb); !os.IsNotExist(err) {
		t.Fatalf("a whitespace digest created the fallback (%v)", err)
	}
	if _, err := s.Write("s1", "GOAL: x"); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(fb)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("fallback after a write: %v, %v; want mode 0700", fi, err)
	}
	var out strings.Builder
	if s.Read("s1", &out); out.String() != "==> prior /how-do-i digest 1 <==\nGOAL: x\n" {
		t.Fatalf("replay %q", out.String())
	}
}
