package failopen

import (
	"time"

	"github.com/procedures-go/procedures/internal/gatelog"
)

// The closed set of reasons the hooks record. A reason outside it is
// recorded behind the prefix "unrecognized:" (sanitised, then capped), never
// dropped.
const (
	// WhyResetHookNeverRan: a gate found no started turn for the session.
	WhyResetHookNeverRan = "reset-hook-never-ran"
	// WhyActivityUndetermined: the Stop gate could not read the turn's
	// transcript, or read its cap (128 MiB from the end) without finding
	// the turn's start.
	WhyActivityUndetermined = "activity-undetermined"
	// WhyStoreUnwritable: a store (digests, turn state) could not be written.
	WhyStoreUnwritable = "store-unwritable"
	// WhyPayloadShapeUnrecognized: a Skill payload held no digest and no
	// explanation why.
	WhyPayloadShapeUnrecognized = "payload-shape-unrecognized"
	// WhyMalformedPayload: stdin was not one JSON value, or too large.
	WhyMalformedPayload = "malformed-payload"
	// WhyNonObjectPayload: stdin was one JSON value but not an object.
	WhyNonObjectPayload = "non-object-payload"
	// WhySkillUnresolvable: a gate's skill file could not be read.
	WhySkillUnresolvable = "skill-unresolvable"
	// WhyInternalError: a hook panicked; it released instead.
	WhyInternalError = "internal-error"
)

// classify maps an already sanitised reason to what is recorded: a member of
// the closed set unchanged, anything else behind the quarantine prefix.
func classify(why string) string {
	switch why {
	case WhyResetHookNeverRan, WhyActivityUndetermined, WhyStoreUnwritable, WhyPayloadShapeUnrecognized,
		WhyMalformedPayload, WhyNonObjectPayload, WhySkillUnresolvable, WhyInternalError:
		return why
	}
	return gatelog.UnrecognizedPrefix + why
}

// line builds one record, ending in '\n' (see the package documentation).
func line(t time.Time, gate, why, sessionID string) []byte {
	return gatelog.Line(t, gate, why, sessionID, classify)
}

// Log appends records to one file. The zero Log (and a nil *Log) records
// nothing.
type Log struct {
	// Path is the log file; "" records nothing. Its directory is never
	// created.
	Path string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Record appends one record for gate, why and sessionID: an empty gate or
// why is recorded as "unknown", and a why outside the closed set behind
// "unrecognized:". It never blocks on other writers (nor on a FIFO without
// a reader), never prints, and returns the write error only so callers and
// tests can see it: a hook ignores it (the record is then lost, by design).
func (l *Log) Record(gate, why, sessionID string) error {
	if l == nil || l.Path == "" {
		return nil
	}
	now := time.Now
	if l.Now != nil {
		now = l.Now
	}
	return gatelog.AppendLine(l.Path, line(now(), gate, why, sessionID))
}
