package failopen

import (
	"os"
	"strings"
	"time"

	"github.com/procedures-go/procedures/internal/wholerow"
)

// The closed set of reasons. A reason outside it is recorded as
// [UnrecognizedPrefix] + the sanitised reason, never dropped.
const (
	WhyNoJQ                     = "no-jq"
	WhyResetHookNeverRan        = "reset-hook-never-ran"
	WhyActivityUndetermined     = "activity-undetermined"
	WhyStoreUnwritable          = "store-unwritable"
	WhyPayloadShapeUnrecognized = "payload-shape-unrecognized"
	WhyMalformedPayload         = "malformed-payload"
	WhyNonObjectPayload         = "non-object-payload"
	WhySkillUnresolvable        = "skill-unresolvable"

	// LibUnreadablePrefix starts the one open-ended member of the closed set:
	// "lib-unreadable:" followed by any (sanitised) library name, even none.
	LibUnreadablePrefix = "lib-unreadable:"

	// UnrecognizedPrefix quarantines a reason outside the closed set.
	UnrecognizedPrefix = "unrecognized:"
)

// TimeLayout is the layout of the ts field: UTC, second precision.
const TimeLayout = "2006-01-02T15:04:05Z"

var closedSet = map[string]bool{
	WhyNoJQ:                     true,
	WhyResetHookNeverRan:        true,
	WhyActivityUndetermined:     true,
	WhyStoreUnwritable:          true,
	WhyPayloadShapeUnrecognized: true,
	WhyMalformedPayload:         true,
	WhyNonObjectPayload:         true,
	WhySkillUnresolvable:        true,
}

// MaxField is the longest a sanitised field may be, in bytes. A longer value
// keeps its first MaxField-len(CutMarker) bytes followed by [CutMarker], so a
// log line stays a few hundred bytes long whatever a payload holds (far below
// the size a single append writes atomically).
const MaxField = 256

// CutMarker ends a field that [Sanitize] cut to [MaxField] bytes. It is made
// of bytes Sanitize keeps, so a cut line is still a valid record.
const CutMarker = "...cut"

// Sanitize replaces every byte outside [A-Za-z0-9_.:-] with '_' (byte-wise:
// a two-byte UTF-8 character becomes "__") and caps the result at
// [MaxField] bytes, a cut value ending in [CutMarker]. Only the bytes kept
// are read, so the cost does not grow with the input.
func Sanitize(s string) string {
	cut := len(s) > MaxField
	if cut {
		s = s[:MaxField-len(CutMarker)]
	}
	b := make([]byte, len(s), len(s)+len(CutMarker))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !allowed(c) {
			c = '_'
		}
		b[i] = c
	}
	if cut {
		b = append(b, CutMarker...)
	}
	return string(b)
}

func allowed(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '_' || c == '.' || c == ':' || c == '-'
}

// Classify maps an already sanitised reason to what is recorded: a member of
// the closed set (or anything starting with [LibUnreadablePrefix]) unchanged,
// anything else behind [UnrecognizedPrefix].
func Classify(why string) string {
	if closedSet[why] || strings.HasPrefix(why, LibUnreadablePrefix) {
		return why
	}
	return UnrecognizedPrefix + why
}

// Line builds one record, ending in '\n'. Empty gate and why become
// "unknown" (so an empty why is recorded as "unrecognized:unknown"); every
// field is sanitised before why is classified.
func Line(t time.Time, gate, why, sessionID string) []byte {
	if gate == "" {
		gate = "unknown"
	}
	if why == "" {
		why = "unknown"
	}
	gate = Sanitize(gate)
	why = Classify(Sanitize(why))
	sessionID = Sanitize(sessionID)
	b := make([]byte, 0, 64+len(gate)+len(why)+len(sessionID))
	b = append(b, `{"ts":"`...)
	b = t.UTC().AppendFormat(b, TimeLayout)
	b = append(b, `","gate":"`...)
	b = append(b, gate...)
	b = append(b, `","why":"`...)
	b = append(b, why...)
	b = append(b, `","session_id":"`...)
	b = append(b, sessionID...)
	b = append(b, "\"}\n"...)
	return b
}

// Path returns the log location: GATE_FAILOPEN_LOG when non-empty, else
// $HOME/.claude/gate-failopen.jsonl. An unset HOME counts as empty (the path
// is then /.claude/gate-failopen.jsonl); the account database is never read.
func Path(getenv func(string) string) string {
	if p := getenv("GATE_FAILOPEN_LOG"); p != "" {
		return p
	}
	// Spelled as bash spells "$HOME/.claude/gate-failopen.jsonl": not cleaned,
	// so a ".." after a symlink resolves as the kernel resolves it.
	return getenv("HOME") + "/.claude/gate-failopen.jsonl"
}

// Log appends records to one file.
type Log struct {
	// Path is the log file. Its directory is never created.
	Path string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// New returns the Log that the environment selects (see [Path]).
func New(getenv func(string) string) *Log {
	return &Log{Path: Path(getenv)}
}

// Record appends one record for gate, why and sessionID. It never blocks on
// other writers, never prints, and returns the write error only so callers
// and tests can see it: a hook ignores it (the record is then lost, by
// design).
func (l *Log) Record(gate, why, sessionID string) error {
	now := time.Now
	if l.Now != nil {
		now = l.Now
	}
	return AppendLine(l.Path, Line(now(), gate, why, sessionID))
}

// AppendLine appends line (one whole JSONL record, ending in '\n') to the
// file at path with a single write call on an O_APPEND descriptor, creating
// the file but never its directory: concurrent appenders never interleave
// within a line. A line is written whole or not at all, and never joins a
// partial line already at the end of the file (see internal/wholerow). The
// open never waits (O_NONBLOCK: a FIFO without a reader
// is an error, not a hang). Every gate log (this one, the escape log) is
// written through it.
func AppendLine(path string, line []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|nonblock, 0o666)
	if err != nil {
		return err
	}
	werr := wholerow.Append(f, line)
	cerr := f.Close()
	if werr != nil {
		return werr
	}
	return cerr
}
