// Package gatelog is the plumbing the gates' JSON-lines logs share (the
// fail-open log written by package failopen, the escape log written by
// internal/offswitch): fields sanitised byte-wise to [A-Za-z0-9_.:-] and
// capped, UTC second-precision timestamps, and an append that writes a whole
// line in one write(2), never blocks and never creates a directory; and the
// reading side (read.go): the line cap, a line scanner, the flat-record and
// timestamp parsers, which the readers of the logs (internal/doctor,
// internal/evidence) use.
package gatelog

import (
	"os"
	"time"

	"github.com/procedures-go/procedures/internal/fsx"
	"github.com/procedures-go/procedures/internal/wholerow"
)

// TimeLayout is the layout of the ts field: UTC, second precision.
const TimeLayout = "2006-01-02T15:04:05Z"

// UnrecognizedPrefix quarantines, in the fail-open log, a reason outside
// package failopen's closed set.
const UnrecognizedPrefix = "unrecognized:"

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

// Line builds one fail-open record, ending in '\n':
//
//	{"ts":"2026-11-30T08:34:26Z","gate":"digest-record","why":"malformed-payload","session_id":""}
//
// with the keys in that order. Empty gate and why become "unknown"; every
// field is sanitised, and then classify, when not nil, maps the sanitised
// why to what is recorded (package failopen quarantines a reason outside its
// closed set behind [UnrecognizedPrefix]; with nil, why is written as it
// is, as an old log may hold it).
func Line(t time.Time, gate, why, sessionID string, classify func(string) string) []byte {
	if gate == "" {
		gate = "unknown"
	}
	if why == "" {
		why = "unknown"
	}
	gate = Sanitize(gate)
	why = Sanitize(why)
	if classify != nil {
		why = classify(why)
	}
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

// AppendLine appends line (one whole JSONL record, ending in '\n') to the
// file at path with a single write call on an O_APPEND descriptor, creating
// the file but never its directory: concurrent appenders never interleave
// within a line. A line is written whole or not at all, and never joins a
// partial line already at the end of the file (see internal/wholerow). The
// open never waits (fsx.NonBlock: a FIFO without a reader is an error, not a
// hang). Every gate log (the fail-open log, the escape log) is written
// through it.
func AppendLine(path string, line []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|fsx.NonBlock, 0o666)
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
