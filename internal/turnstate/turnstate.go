package turnstate

import (
	"errors"
	"os"
	"strings"
	"time"

	"github.com/procedures-go/procedures/hookio"
	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/fsx"
	"github.com/procedures-go/procedures/internal/sessionname"
)

// The marker keys.
const (
	Turn         = "turn"            // a turn has started (the reset hook ran)
	HowDoI       = "how_do_i"        // Skill(how-do-i) ran this turn
	AmIDone      = "am_i_done"       // Skill(am-i-done) ran this turn
	AmIDoneAsked = "am_i_done_asked" // the Stop gate already blocked once this turn
)

// Unknown is the session key of a payload without a usable session id.
const Unknown = "unknown" // sessionname.TurnState.Empty

// StaleAge is the age from which the reaper deletes a top-level file: two
// whole days (find -mtime +1).
const StaleAge = 48 * time.Hour

// Store is a turn-state directory.
type Store struct {
	Dir string

	// untrusted is set by New when Dir is a per-user fallback that is not
	// private to the user (ErrUntrusted): nothing is
	// marked, reset or seen there, so the gates fail open.
	untrusted error
	// fallback is set by New when Dir is the per-user fallback: it is
	// created 0700 and checked again once it exists.
	fallback bool
}

// New returns the store of the directory the setting selects
// ([ResolveDir] with [DefaultDir]).
func New(c config.TurnState) Store {
	d := ResolveDir(c.Dir, DefaultDir)
	return Store{Dir: d.Path, untrusted: d.Err, fallback: d.Fallback}
}

// ensureDir creates the directory when missing (a fallback private, then
// checked again: someone may have created it first) and refuses an
// untrusted one.
func (s Store) ensureDir() error {
	if s.untrusted != nil {
		return s.untrusted
	}
	if !s.fallback {
		return os.MkdirAll(s.Dir, 0o777)
	}
	return Dir{Path: s.Dir, Fallback: true}.ensureFallback()
}

// SessionKey derives the session key of a payload: its session_id as jq -r
// renders it, trailing line feeds removed, every byte outside
// [A-Za-z0-9_-] replaced by '_' (byte-wise: a two-byte UTF-8 character
// becomes "__", '.' and '/' become '_'); "unknown" when that is empty, the id
// is missing, null or false, or the payload is nil. A key never names a path
// outside the directory.
func SessionKey(p *hookio.Payload) string {
	raw, ok := p.SessionID()
	if !ok {
		return Unknown
	}
	return Sanitize(raw)
}

// Sanitize maps a raw session id to its key (see [SessionKey]): the one
// session-name rule under the turn-state Rule.
func Sanitize(raw string) string {
	name, _ := sessionname.Of(raw, sessionname.TurnState)
	return name
}

func (s Store) path(sid, key string) string {
	return s.Dir + string(os.PathSeparator) + sid + "." + key
}

// Mark records a fact: it creates the directory (and its parents) when
// missing, then creates or truncates <sid>.<key>. It reads no other state.
// A marker path that is a symlink or a FIFO is refused, never followed or
// waited on.
func (s Store) Mark(sid, key string) error {
	if err := s.ensureDir(); err != nil {
		return err
	}
	return touch(s.path(sid, key))
}

// touch creates or truncates a regular file without following a symlink or
// waiting on a FIFO.
func touch(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|fsx.NoFollow|fsx.NonBlock, 0o666)
	if err != nil {
		return err
	}
	return f.Close()
}

// IsMarked reports whether <sid>.<key> exists and is a regular file
// (symlinks followed); never in an untrusted fallback.
func (s Store) IsMarked(sid, key string) bool {
	if s.untrusted != nil {
		return false
	}
	fi, err := os.Stat(s.path(sid, key))
	return err == nil && fi.Mode().IsRegular()
}

// TurnStarted reports whether the reset hook started a turn for sid.
func (s Store) TurnStarted(sid string) bool { return s.IsMarked(sid, Turn) }

// ErrNoDir reports a directory that could not be created or listed.
var ErrNoDir = errors.New("turn-state directory unavailable")

// Reset starts a new turn for sid at now:
//
//  1. it creates the directory when missing (and stops if it cannot);
//  2. it deletes every entry named <sid>.<anything> other than <sid>.turn,
//     whatever its key (an empty directory goes too; a non-empty one stays);
//  3. it creates or truncates <sid>.turn and sets its time to now;
//  4. it deletes every regular file directly in the directory, of any
//     session, last modified [StaleAge] or more before now. It never
//     descends into a subdirectory (the digest store lives in one).
//
// Errors of single entries are ignored; the first one is returned.
func (s Store) Reset(sid string, now time.Time) error {
	if err := s.ensureDir(); err != nil {
		return errors.Join(ErrNoDir, err)
	}
	entries, err := os.ReadDir(s.Dir)
	if err != nil {
		return errors.Join(ErrNoDir, err)
	}
	var first error
	keep := func(err error) {
		if first == nil && err != nil && !errors.Is(err, os.ErrNotExist) {
			first = err
		}
	}
	prefix, turn := sid+".", sid+"."+Turn
	gone := make([]bool, len(entries))
	for i, e := range entries {
		if name := e.Name(); name != turn && strings.HasPrefix(name, prefix) {
			keep(os.Remove(s.Dir + string(os.PathSeparator) + name))
			gone[i] = true
		}
	}
	tp := s.path(sid, Turn)
	if err := touch(tp); err != nil {
		keep(err)
	} else {
		keep(os.Chtimes(tp, now, now))
	}
	for i, e := range entries {
		if gone[i] || e.Name() == turn || !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() || now.Sub(fi.ModTime()) < StaleAge {
			continue
		}
		keep(os.Remove(s.Dir + string(os.PathSeparator) + e.Name()))
	}
	return first
}
