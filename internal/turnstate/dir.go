package turnstate

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/procedures-go/procedures/digest"
	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/fsx"
)

// DefaultDir is the turn-state directory the hooks share when
// TURN_STATE_DIR is unset.
const DefaultDir = config.TurnStateDefault

// ErrUntrusted reports a per-user fallback turn-state directory that is not
// private to the current user: it exists and is not a real directory (not a
// symlink) that the user owns and that neither group nor others may write.
// Markers and digests are then neither read nor written there (the hooks
// fail open).
var ErrUntrusted = errors.New("turn-state fallback directory is not private to the current user")

// Dir is a resolved turn-state directory (the gates' marker files; the
// digest store is its digests subdirectory).
type Dir struct {
	// Path is the directory.
	Path string
	// Fallback reports the per-user fallback: it is created 0700 and
	// checked again once it exists.
	Fallback bool
	// Err is an error matching ErrUntrusted when Path is a fallback that
	// must not be used.
	Err error
}

// ResolveDir applies the turn-state rule with def as the default:
//
//   - set ($TURN_STATE_DIR) when it is not empty, taken as given;
//   - else def, when that path does not exist yet or is a directory (not a
//     symlink) owned by the current user;
//   - else def + "-<uid>": on a shared host another user owns
//     /tmp/claude-turn-state (or planted something there), and a user never
//     writes into, reaps or replays another user's directory. This fallback
//     is usable only when it does not exist yet (it is then created 0700)
//     or is a directory of the user that neither group nor others may
//     write; Err says when it is not.
//
// Every command that touches turn state or digests computes its directory
// here, so they all agree; a tool that reports on the hooks' state passes a
// default of its own.
func ResolveDir(set, def string) Dir {
	if set != "" {
		return Dir{Path: set}
	}
	fi, err := os.Lstat(def)
	if os.IsNotExist(err) || (err == nil && fi.IsDir() && fsx.OwnedByMe(fi)) {
		return Dir{Path: def}
	}
	fb := def + "-" + strconv.Itoa(os.Geteuid())
	return Dir{Path: fb, Fallback: true, Err: privateFallback(fb)}
}

// privateFallback checks a per-user fallback directory: nil when it does
// not exist or is a directory (not a symlink) of the current user that
// neither group nor others may write, else an error matching ErrUntrusted.
func privateFallback(dir string) error {
	fi, err := os.Lstat(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err == nil && fi.IsDir() && fsx.OwnedByMe(fi) && !fsx.SharedWritable(fi) {
		return nil
	}
	return &os.PathError{Op: "use", Path: dir, Err: ErrUntrusted}
}

// ensureFallback creates the fallback private and checks it again (someone
// may have been faster); it does nothing for another directory.
func (d Dir) ensureFallback() error {
	if !d.Fallback {
		return nil
	}
	if err := os.Mkdir(d.Path, 0o700); err != nil && !os.IsExist(err) {
		return err
	}
	return privateFallback(d.Path)
}

// DigestDir is the digest store's directory: c.Dir ($SESSION_DIGEST_DIR)
// when set, else <turn-state dir>/digests, never cleaned (as bash's
// ${TURN_STATE_DIR}/digests).
func DigestDir(c config.Digest, ts Dir) string {
	if c.Dir != "" {
		return c.Dir
	}
	return ts.Path + "/digests"
}

// Digests is the digest store the hooks share: the store of [DigestDir]
// with the settings' options. When it lies in the turn-state
// directory, it follows that directory's rule: in an untrusted fallback
// nothing is written (a *digest.WriteError matching digest.ErrInsecureDir)
// or replayed; a fallback is created 0700, and checked again, by the first
// Write that stores a digest.
type Digests struct {
	*digest.Store
	untrusted error
}

// OpenDigests opens the digest store the settings select: c's directory,
// else the digests directory of the turn-state directory ts selects.
func OpenDigests(ts config.TurnState, c config.Digest) (Digests, error) {
	return openDigests(ts, c, DefaultDir)
}

// openDigests is OpenDigests with def as the default turn-state directory.
func openDigests(tsc config.TurnState, c config.Digest, def string) (Digests, error) {
	o := c.Options()
	var ts Dir
	if c.Dir == "" {
		ts = ResolveDir(tsc.Dir, def)
		if ts.Err != nil || ts.Fallback {
			o.Prepare = func() error {
				if ts.Err != nil {
					return fmt.Errorf("%w: %w", digest.ErrInsecureDir, ts.Err)
				}
				if err := ts.ensureFallback(); err != nil {
					return fmt.Errorf("%w: %w", digest.ErrInsecureDir, err)
				}
				return nil
			}
		}
	}
	s, err := digest.Open(DigestDir(c, ts), o)
	return Digests{Store: s, untrusted: ts.Err}, err
}

// Read replays the session's digests (see [digest.Store.Read]); nothing
// from an untrusted fallback.
func (d Digests) Read(key string, w io.Writer) error {
	if d.untrusted != nil {
		return nil
	}
	return d.Store.Read(key, w)
}
