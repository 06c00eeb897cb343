// Package turnstatereset is the turn-state-reset command, the
// UserPromptSubmit hook that starts a new turn for the payload's session.
//
// Usage (hooks.json, event UserPromptSubmit; the payload arrives on stdin):
//
//	turn-state-reset
//
// It clears every marker of the session except <session>.turn, stamps
// <session>.turn, and reaps top-level turn-state files two days old or more.
// It takes no arguments, always exits 0 and never prints (UserPromptSubmit
// output would reach the model).
//
// Environment: TURN_STATE_DIR.
package turnstatereset

import (
	"io"
	"time"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/gate"
	"github.com/procedures-go/procedures/internal/turnstate"
)

// Main runs the hook; it returns 0 on every path, a panic included.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, env cli.Env) (code int) {
	if code, done := help.Answer(args, stdout, stderr); done {
		return code
	}
	defer func() {
		recover()
		code = 0
	}()
	p := gate.ReadPayload(stdin)
	_ = turnstate.New(env.Get).Reset(turnstate.SessionKey(p), time.Now())
	return 0
}
