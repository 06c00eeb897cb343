package doctor

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/procedures-go/procedures/failopen"
	"github.com/procedures-go/procedures/internal/bundle"
	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/gatelog"
)

// MaxGroups caps the distinct gate/reason pairs a log summary keeps; rows
// of further pairs are counted together.
const MaxGroups = 64

// recentSessions is how many session ids a group keeps: its most recent.
const recentSessions = 3

// A Group is every row of one gate and reason inside the window.
type Group struct {
	Gate, Reason string
	Count        int
	First, Last  time.Time
	// Sessions are the session ids of the most recent rows, newest first.
	Sessions []string

	recent []row // at most recentSessions, newest first
}

type row struct {
	ts      time.Time
	line    int
	session string
}

// A LogSummary is what one read of a fail-open log found.
type LogSummary struct {
	Groups           []*Group // by gate, then reason
	InWindow         int      // rows counted in Groups or Overflow
	Older            int      // well-formed rows before the window
	Unparseable      int      // lines that are not fail-open records
	FirstUnparseable int      // 1-based line number of the first
	Overlong         int      // lines of gatelog.MaxLine bytes or more, skipped
	FirstOverlong    int
	Overflow         int       // rows of gate/reason pairs beyond MaxGroups
	Last             time.Time // the latest row in the window
}

var foKeys = []string{"ts", "gate", "why", "session_id"}

// SummarizeFailOpen reads a fail-open log from r, streaming, and counts the
// rows at or after since by gate and reason. A line counts only when it is
// a record exactly as the logger writes it, with a reason the logger can
// write; any other line is counted as unparseable and otherwise ignored.
func SummarizeFailOpen(r io.Reader, since time.Time) (*LogSummary, error) {
	s := &LogSummary{}
	groups := map[string]*Group{}
	vals := make([][]byte, len(foKeys))
	var key []byte
	bad := func(n int) {
		if s.Unparseable == 0 {
			s.FirstUnparseable = n
		}
		s.Unparseable++
	}
	overlong, first, err := gatelog.ScanLines(r, func(n int, line []byte) {
		if !gatelog.ParseFlat(line, foKeys, vals) || len(vals[1]) == 0 || !knownReason(vals[2]) {
			bad(n)
			return
		}
		ts, ok := gatelog.ParseTS(vals[0])
		if !ok {
			bad(n)
			return
		}
		if ts.Before(since) {
			s.Older++
			return
		}
		s.InWindow++
		if ts.After(s.Last) {
			s.Last = ts
		}
		key = append(append(append(key[:0], vals[1]...), 0), vals[2]...)
		g := groups[string(key)]
		if g == nil {
			if len(groups) >= MaxGroups {
				s.Overflow++
				return
			}
			g = &Group{Gate: string(vals[1]), Reason: string(vals[2]), First: ts, Last: ts}
			groups[string(key)] = g
		}
		g.Count++
		if ts.Before(g.First) {
			g.First = ts
		}
		if !ts.Before(g.Last) {
			g.Last = ts
		}
		g.note(row{ts, n, string(vals[3])})
	})
	s.Overlong, s.FirstOverlong = overlong, first
	for _, g := range groups {
		for _, r := range g.recent {
			g.Sessions = append(g.Sessions, r.session)
		}
		s.Groups = append(s.Groups, g)
	}
	slices.SortFunc(s.Groups, func(a, b *Group) int {
		return cmp.Or(strings.Compare(a.Gate, b.Gate), strings.Compare(a.Reason, b.Reason))
	})
	return s, err
}

// note keeps r if it is among the group's most recent rows (a later line
// wins a tie).
func (g *Group) note(r row) {
	i := len(g.recent)
	for i > 0 && !r.ts.Before(g.recent[i-1].ts) {
		i--
	}
	if i >= recentSessions {
		return
	}
	g.recent = slices.Insert(g.recent, i, r)
	if len(g.recent) > recentSessions {
		g.recent = g.recent[:recentSessions]
	}
}

// The reasons only the bash original's hooks recorded; a log written before
// the Go hooks replaced them may still hold them.
const (
	whyNoJQ = "no-jq"
	// libUnreadablePrefix starts the bash logger's one open-ended reason:
	// "lib-unreadable:" followed by any (sanitised) library name, even none.
	libUnreadablePrefix = "lib-unreadable:"
)

// knownReason reports whether a logger can have written why: a reason of
// package failopen's closed set, one of the bash original's
// (no-jq, lib-unreadable:<name>) or unrecognized:<reason>.
func knownReason(why []byte) bool {
	switch w := string(why); w {
	case failopen.WhyResetHookNeverRan, failopen.WhyActivityUndetermined, failopen.WhyStoreUnwritable,
		failopen.WhyPayloadShapeUnrecognized, failopen.WhyMalformedPayload, failopen.WhyNonObjectPayload,
		failopen.WhySkillUnresolvable, failopen.WhyInternalError, bundle.WhyBinaryUnrunnable, whyNoJQ:
		return true
	default:
		return strings.HasPrefix(w, gatelog.UnrecognizedPrefix) || strings.HasPrefix(w, libUnreadablePrefix)
	}
}

// reasonFix is the advice for a blind release with reason why.
func reasonFix(why string) string {
	switch {
	case why == failopen.WhySkillUnresolvable:
		return "install the gate's skill beside the hooks (see Wiring); until then the gate releases every turn"
	case why == failopen.WhyStoreUnwritable:
		return "make the digest directory a directory you own and can write (see Stores)"
	case why == failopen.WhyResetHookNeverRan:
		return "wire turn-state-reset on UserPromptSubmit and give every hook the same TURN_STATE_DIR (see Wiring, Stores)"
	case why == failopen.WhyActivityUndetermined:
		return "check that the turn-state directory is readable and writable (see Stores); a transcript ending in more than 128 MiB without a user prompt also releases this way: start a new session"
	case why == failopen.WhyMalformedPayload, why == failopen.WhyNonObjectPayload:
		return "the hook was given a payload it could not read: check that Claude Code runs it as a hook, and update procedures"
	case why == failopen.WhyPayloadShapeUnrecognized:
		return "the Skill tool's payload changed shape: update procedures"
	case why == bundle.WhyBinaryUnrunnable:
		return "the launcher found no binary it could run for this platform: see the Wiring findings for the file and the command that restores it"
	case why == failopen.WhyInternalError:
		return "a hook panicked and released (a bug): update procedures, and report it"
	case why == whyNoJQ, strings.HasPrefix(why, libUnreadablePrefix):
		return "a bash hook of the original plugin is still wired: replace it with the procedures bundle"
	default:
		return "a hook recorded a reason this build does not know (internal-error is a bug): update procedures, and report it"
	}
}

// logWritable reports why the logger could not append to path, or nil:
// the file must be a regular file the user may write, or be missing from a
// directory the user may write into (the logger never creates the
// directory). It asks the kernel (access(2)) instead of trying, so nothing
// is written, and it holds for root too (a path under a regular file).
func logWritable(path string) error {
	fi, err := os.Stat(path)
	if err == nil {
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("%s is a %s, not a regular file", path, fi.Mode().Type())
		}
		return access(path, accessW)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	dir := filepath.Dir(path)
	dfi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("its directory %s: %w (the logger never creates it)", dir, cause(err))
	}
	if !dfi.IsDir() {
		return fmt.Errorf("its directory %s is not a directory", dir)
	}
	if err := access(dir, accessW|accessX); err != nil {
		return fmt.Errorf("its directory %s: %w", dir, cause(err))
	}
	return nil
}

// checkFailOpen adds the Fail-open log findings.
func checkFailOpen(r *Report, o *Options, since time.Time) {
	add := func(f Finding) { f.Section = SectionFailOpen; r.add(f) }
	path := o.Settings.FailOpenLog
	_, statErr := os.Stat(path)
	missing := errors.Is(statErr, fs.ErrNotExist)
	located := false
	if err := logWritable(path); err != nil {
		located = true
		fix := locationFix(path, o)
		add(Finding{Status: Fail, Subject: "location", Reason: fmt.Sprintf("%s is not writable: %v; blind releases would be lost", path, err) + envNote(fix),
			Fix:  fix,
			Data: map[string]any{"path": path}})
	} else if missing {
		add(Finding{Status: OK, Subject: "location", Reason: path + ": missing, so nothing was released blind; its directory is writable",
			Data: map[string]any{"path": path}})
	} else {
		add(Finding{Status: OK, Subject: "location", Reason: path + ": writable", Data: map[string]any{"path": path}})
	}
	if missing {
		return
	}
	f, err := openLog(path)
	if err != nil && located {
		// One the logger cannot append to either: the location's fix is
		// the one.
		return
	}
	if err != nil {
		add(Finding{Status: Fail, Subject: "log", Reason: fmt.Sprintf("%s cannot be read: %v", path, cause(err)),
			Fix: unreadableFix(path, o.Now)})
		return
	}
	defer f.Close()
	s, err := SummarizeFailOpen(f, since)
	r.GateActivity = r.GateActivity || s.InWindow > 0
	if err != nil {
		add(Finding{Status: Fail, Subject: "log", Reason: fmt.Sprintf("%s: read error: %v", path, err)})
	}
	for _, g := range s.Groups {
		add(Finding{Status: Fail, Subject: g.Gate + " " + g.Reason,
			Reason: fmt.Sprintf("%s, first %s, last %s, recent sessions %s; cause: %s; once it is repaired, the fix checks again past these rows", plural(g.Count, "blind release"),
				g.First.UTC().Format(gatelog.TimeLayout), g.Last.UTC().Format(gatelog.TimeLayout), sessionList(g.Sessions), reasonFix(g.Reason)),
			Fix: recheck(o, g.Last),
			Data: map[string]any{"gate": g.Gate, "reason": g.Reason, "count": g.Count,
				"first": g.First.UTC().Format(gatelog.TimeLayout), "last": g.Last.UTC().Format(gatelog.TimeLayout),
				"sessions": g.Sessions}})
	}
	if s.Overflow > 0 {
		add(Finding{Status: Fail, Subject: "other reasons",
			Reason: fmt.Sprintf("%s more, of gate/reason pairs beyond the first %d: read the log itself; the fix checks again past every row", plural(s.Overflow, "blind release"), MaxGroups),
			Fix:    recheck(o, s.Last), Data: map[string]any{"count": s.Overflow}})
	}
	if s.InWindow == 0 {
		add(Finding{Status: OK, Subject: "blind releases", Reason: fmt.Sprintf("none in the window (%d older)", s.Older),
			Data: map[string]any{"count": 0, "older": s.Older}})
	}
	if s.Unparseable > 0 {
		add(Finding{Status: Warn, Subject: "unparseable lines",
			Reason: fmt.Sprintf("%d (first at line %d): not fail-open records, so not counted: something other than the logger writes to this file; the fix sets the log aside (the hooks start a new one)", s.Unparseable, s.FirstUnparseable),
			Fix:    setAside(path, o.Now),
			Data:   map[string]any{"count": s.Unparseable, "first_line": s.FirstUnparseable}})
	}
	if s.Overlong > 0 {
		add(Finding{Status: Warn, Subject: "over-long lines",
			Reason: fmt.Sprintf("%d (first at line %d): %d bytes or more, skipped unread and not counted: something other than the logger writes to this file; the fix sets the log aside (the hooks start a new one)", s.Overlong, s.FirstOverlong, gatelog.MaxLine),
			Fix:    setAside(path, o.Now),
			Data:   map[string]any{"count": s.Overlong, "first_line": s.FirstOverlong}})
	}
}

func sessionList(ids []string) string {
	var out []string
	for _, id := range ids {
		if id == "" {
			id = `""`
		}
		out = append(out, id)
	}
	return strings.Join(out, " ")
}

// plural is "1 line", "2 lines".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// locationFix is the fix for a fail-open log the hooks cannot append to:
// a missing directory is created, a file or directory of the user's own
// gets its write bit back, something else at the path is set aside, and
// otherwise the log moves to a directory of the user's own.
func locationFix(path string, o *Options) string {
	fi, err := os.Stat(path)
	dir := filepath.Dir(path)
	switch {
	case err == nil && !fi.Mode().IsRegular():
		return setAside(path, o.Now)
	case err == nil && ownedByMe(fi):
		return "chmod u+w -- " + shellQuote(path)
	case err == nil:
	default:
		dfi, derr := os.Stat(dir)
		anc := existingAncestor(dir)
		switch {
		case errors.Is(derr, fs.ErrNotExist) && mine(anc) && isDir(anc):
			return "mkdir -p -- " + shellQuote(dir)
		case derr == nil && dfi.IsDir() && ownedByMe(dfi):
			return "chmod u+wx -- " + shellQuote(dir)
		}
	}
	own := ownDir(o.Settings.Home, "log")
	return pointAt(config.FailOpenLogVar, own, filepath.Join(own, filepath.Base(path)))
}

// isDir reports whether path is a directory.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
