// Package turnstaterecord is the turn-state-record command, the
// PostToolUse(Skill) hook that marks the gate skills as run this turn.
//
// Usage (hooks.json, event PostToolUse, matcher "Skill"):
//
//	turn-state-record
//
// A Skill call of how-do-i or procedures:how-do-i marks <session>.how_do_i;
// am-i-done or procedures:am-i-done marks <session>.am_i_done. Names match
// exactly; anything else marks nothing. It takes no arguments, always exits
// 0 and never prints.
//
// Environment: TURN_STATE_DIR; GATE_FAILOPEN_LOG and HOME for the fail-open
// row a panic leaves (internal-error).
package turnstaterecord

import (
	"io"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/gate"
	"github.com/procedures-go/procedures/internal/turnstate"
)

// keys maps the accepted skill names to their marker.
var keys = map[string]string{
	"how-do-i":             turnstate.HowDoI,
	"procedures:how-do-i":  turnstate.HowDoI,
	"am-i-done":            turnstate.AmIDone,
	"procedures:am-i-done": turnstate.AmIDone,
}

// hook is turn-state-record; a panic is recorded under its own name.
var hook = cli.Hook{Help: help, Body: record}

// Main runs the hook; it returns 0 on every path, a panic included.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, env cli.Env) int {
	return hook.Main(args, stdin, stdout, stderr, env)
}

func record(stdin io.Reader, _, _ io.Writer, env cli.Env) int {
	p := gate.ReadPayload(stdin)
	if p.ToolName() != "Skill" {
		return 0
	}
	if key, ok := keys[p.Skill()]; ok {
		_ = turnstate.New(config.TurnStateFrom(env.Get)).Mark(turnstate.SessionKey(p), key)
	}
	return 0
}
