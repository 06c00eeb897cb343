package gate

import (
	"io"
	"time"

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

// Run is the body of a gate (its cli.Hook's Body): it reads the payload
// from stdin, asks decide, and prints the decision it returns (nil:
// nothing, the call goes through). It returns 0: a gate never blocks a
// session by failing (a panic is the hook wrapper's release).
func Run(stdin io.Reader, stdout io.Writer, getenv func(string) string,
	decide func(p *hookio.Payload, getenv func(string) string, now time.Time) []byte) int {
	if out := decide(ReadPayload(stdin), getenv, time.Now()); out != nil {
		stdout.Write(out)
	}
	return 0
}
