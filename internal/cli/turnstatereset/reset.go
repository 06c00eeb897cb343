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
// Environment: TURN_STATE_DIR; GATE_FAILOPEN_LOG and HOME for the fail-open
// row a panic leaves (internal-error).
package turnstatereset

import (
	"io"
	"time"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/gate"
	"github.com/procedures-go/procedures/internal/turnstate"
)

// hook is turn-state-reset; a panic is recorded under its own name.
var hook = cli.Hook{Help: help, Body: reset}

// Main runs the hook; it returns 0 on every path, a panic included.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, env cli.Env) int {
	return hook.Main(args, stdin, stdout, stderr, env)
}

func reset(stdin io.Reader, _, _ io.Writer, env cli.Env) int {
	p := gate.ReadPayload(stdin)
	_ = turnstate.New(config.TurnStateFrom(env.Get)).Reset(turnstate.SessionKey(p), time.Now())
	return 0
}
