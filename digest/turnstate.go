package digest

import (
	"os"
	"strconv"
)

// TurnStateDir returns the directory the plugin's hooks share for turn state
// (the gates' marker files; the digest store is its digests subdirectory):
//
//   - $TURN_STATE_DIR when it is set and not empty, taken as given;
//   - else [DefaultTurnStateDir], when that path does not exist yet or is a
//     directory (not a symlink) owned by the current user;
//   - else DefaultTurnStateDir + "-<uid>": on a shared host another user owns
//     /tmp/claude-turn-state (or planted something there), and a user never
//     writes into, reaps or replays another user's directory.
//
// Every command that touches turn state or digests computes its directory
// here, so they all agree.
func TurnStateDir(getenv func(string) string) string {
	return TurnStateDirFrom(getenv, DefaultTurnStateDir)
}

// TurnStateDirFrom is the rule of [TurnStateDir] with def in place of
// [DefaultTurnStateDir]: $TURN_STATE_DIR, else def when it does not exist or
// is a directory (not a symlink) owned by the current user, else def-<uid>.
// A tool that reports on the hooks' state can show the fallback with a
// default of its own, without touching the shared one.
func TurnStateDirFrom(getenv func(string) string, def string) string {
	if d := getenv("TURN_STATE_DIR"); d != "" {
		return d
	}
	fi, err := os.Lstat(def)
	if os.IsNotExist(err) || (err == nil && fi.IsDir() && ownedByMe(fi)) {
		return def
	}
	return def + "-" + strconv.Itoa(os.Geteuid())
}
