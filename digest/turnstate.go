package digest

import (
	"errors"
	"os"
	"strconv"
)

// ErrUntrustedTurnStateDir reports a per-user fallback turn-state directory
// that is not private to the current user: it exists and is not a real
// directory (not a symlink) that the user owns and that neither group nor
// others may write. Markers and digests are then neither read nor written
// there (the hooks fail open).
var ErrUntrustedTurnStateDir = errors.New("turn-state fallback directory is not private to the current user")

// TurnStateDir returns the directory the plugin's hooks share for turn state
// (the gates' marker files; the digest store is its digests subdirectory):
//
//   - $TURN_STATE_DIR when it is set and not empty, taken as given;
//   - else [DefaultTurnStateDir], when that path does not exist yet or is a
//     directory (not a symlink) owned by the current user;
//   - else DefaultTurnStateDir + "-<uid>": on a shared host another user owns
//     /tmp/claude-turn-state (or planted something there), and a user never
//     writes into, reaps or replays another user's directory. This fallback
//     is usable only when it does not exist yet (it is then created 0700)
//     or is a directory of the user that neither group nor others may
//     write; [CheckTurnStateDir] says whether it is.
//
// Every command that touches turn state or digests computes its directory
// here, so they all agree.
func TurnStateDir(getenv func(string) string) string {
	return TurnStateDirFrom(getenv, DefaultTurnStateDir)
}

// CheckTurnStateDir is [TurnStateDir] with its verdict: the directory, and
// ErrUntrustedTurnStateDir when it is a fallback that must not be used.
func CheckTurnStateDir(getenv func(string) string) (string, error) {
	return CheckTurnStateDirFrom(getenv, DefaultTurnStateDir)
}

// TurnStateDirFrom is the rule of [TurnStateDir] with def in place of
// [DefaultTurnStateDir]: $TURN_STATE_DIR, else def when it does not exist or
// is a directory (not a symlink) owned by the current user, else def-<uid>.
// A tool that reports on the hooks' state can show the fallback with a
// default of its own, without touching the shared one.
func TurnStateDirFrom(getenv func(string) string, def string) string {
	d, _ := CheckTurnStateDirFrom(getenv, def)
	return d
}

// CheckTurnStateDirFrom is [TurnStateDirFrom] with the verdict of
// [CheckTurnStateDir].
func CheckTurnStateDirFrom(getenv func(string) string, def string) (string, error) {
	if d := getenv("TURN_STATE_DIR"); d != "" {
		return d, nil
	}
	fi, err := os.Lstat(def)
	if os.IsNotExist(err) || (err == nil && fi.IsDir() && ownedByMe(fi)) {
		return def, nil
	}
	fb := def + "-" + strconv.Itoa(os.Geteuid())
	if err := PrivateFallback(fb); err != nil {
		return fb, err
	}
	return fb, nil
}

// PrivateFallback checks a per-user fallback directory: nil when it does
// not exist or is a directory (not a symlink) of the current user that
// neither group nor others may write, else an error matching
// ErrUntrustedTurnStateDir. A writer that creates the fallback checks it
// again after creating it (someone may have been faster).
func PrivateFallback(dir string) error {
	fi, err := os.Lstat(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err == nil && fi.IsDir() && ownedByMe(fi) && !sharedWritable(fi) {
		return nil
	}
	return &os.PathError{Op: "use", Path: dir, Err: ErrUntrustedTurnStateDir}
}
