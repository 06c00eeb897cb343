package gate

import (
	"io"
	"time"

	"github.com/procedures-go/procedures/failopen"
	"github.com/procedures-go/procedures/hookio"
	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/offswitch"
)

// The labels the gates record fail-opens under.
const (
	LabelHowDoI  = "how-do-i"
	LabelAmIDone = "am-i-done"
)

// FailOpen appends one blind-release record to the fail-open log. Write
// errors are ignored: the release happens either way.
func FailOpen(getenv func(string) string, label, why, sid string, now time.Time) {
	log := config.FailOpenLog(getenv)
	log.Now = func() time.Time { return now }
	_ = log.Record(label, why, sid)
}

// ReleaseOrFailOpen releases a gate that cannot evaluate: a switched-off
// gate leaves an escape record, an armed one a fail-open record.
func ReleaseOrFailOpen(getenv func(string) string, key, label, why, sid string, now time.Time) {
	if offswitch.EnabledOrLogRelease(key, getenv, now) {
		FailOpen(getenv, label, why, sid, now)
	}
}

// Recover, deferred at the top of a gate, turns a panic into a release: the
// gate prints nothing and a fail-open record says why.
func Recover(getenv func(string) string, label string) {
	if r := recover(); r != nil {
		FailOpen(getenv, label, failopen.WhyInternalError, "", time.Now())
	}
}

// Run is the body of a gate's Main: it reads the payload from stdin, asks
// decide, and prints the decision it returns (nil: nothing, the call goes
// through). A panic is a release recorded under label (see [Recover]). It
// returns 0 on every path: a gate never blocks a session by failing.
func Run(label string, stdin io.Reader, stdout io.Writer, getenv func(string) string,
	decide func(p *hookio.Payload, getenv func(string) string, now time.Time) []byte) int {
	defer Recover(getenv, label)
	if out := decide(ReadPayload(stdin), getenv, time.Now()); out != nil {
		stdout.Write(out)
	}
	return 0
}
