package gate

import (
	"io"
	"time"

	"github.com/procedures-go/procedures/failopen"
	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/offswitch"
	"github.com/procedures-go/procedures/internal/turnstate"
)

// The labels the gates record fail-opens under.
const (
	LabelHowDoI  = "how-do-i"
	LabelAmIDone = "am-i-done"
)

// Verdict is what a gate decided about one call: the line it prints, and
// the log row or marker that goes with it. A gate's decision only reads (the
// payload, the settings, the turn state); [Verdict.Carry] writes. The zero
// Verdict lets the call through and records nothing.
type Verdict struct {
	// Print is the decision line printed on stdout; nil lets the call
	// through.
	Print []byte
	// Session is the session key the rows and the marker name.
	Session string
	// FailOpen is the reason of a blind release, appended to the fail-open
	// log under the gate's label; "" records none.
	FailOpen string
	// Switch is the key of the gate's off-switch and ReleasedBy the
	// variable that switched it off: a release appended to the escape log.
	// "" records none.
	Switch, ReleasedBy string
	// Mark is a turn-state marker written before Print is printed. When it
	// cannot be written the call is let through instead, recorded as
	// store-unwritable, so the gate never asks twice.
	Mark string
}

// Release is the verdict on a call the gate cannot evaluate (why says what
// was missing): let through, with an escape row when the gate's switch key
// is off, else a fail-open row.
func Release(s config.Hooks, key, why, sid string) Verdict {
	if by := offswitch.ReleasedBy(key, s.Switches); by != "" {
		return Verdict{Session: sid, Switch: key, ReleasedBy: by}
	}
	return Verdict{Session: sid, FailOpen: why}
}

// SwitchedOff is the verdict of a gate whose switch key is off (an escape
// row), and false when the gate is on.
func SwitchedOff(s config.Hooks, key, sid string) (Verdict, bool) {
	by := offswitch.ReleasedBy(key, s.Switches)
	return Verdict{Session: sid, Switch: key, ReleasedBy: by}, by != ""
}

// Carry carries the verdict out for the gate labelled label: it writes the
// marker, then the escape and fail-open rows (write errors are ignored: the
// release happens either way), and prints the decision last. now stamps
// the rows.
func (v Verdict) Carry(s config.Hooks, st turnstate.Store, label string, stdout io.Writer, now time.Time) {
	if v.Mark != "" && st.Mark(v.Session, v.Mark) != nil {
		v = Verdict{Session: v.Session, FailOpen: failopen.WhyStoreUnwritable}
	}
	if v.ReleasedBy != "" {
		_ = offswitch.Record(s.EscapeLog, v.Switch, v.ReleasedBy, now)
	}
	if v.FailOpen != "" {
		log := s.FailOpen()
		log.Now = func() time.Time { return now }
		_ = log.Record(label, v.FailOpen, v.Session)
	}
	if v.Print != nil {
		stdout.Write(v.Print)
	}
}
