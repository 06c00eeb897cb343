// Package howdoigate is the how-do-i-gate command, the PreToolUse hook (every
// tool) that denies a main agent's acting tool calls until
// Skill(procedures:how-do-i) has run this turn.
//
// Usage (hooks.json, event PreToolUse, no matcher):
//
//	how-do-i-gate
//
// In order: a subagent's call, or a call on the compliance path, passes; a
// session whose turn was never started is released and recorded (an escape
// record when the gate is switched off, else a fail-open row
// reset-hook-never-ran); a turn that ran the skill passes; a switched-off
// gate passes (escape record); a missing skills/how-do-i/SKILL.md beside the
// executable passes (fail-open row skill-unresolvable); otherwise the deny
// JSON is printed. It always exits 0; stderr stays empty.
//
// Environment: TURN_STATE_DIR, GATE_FAILOPEN_LOG, GATE_ESCAPE_LOG, HOME,
// PROCEDURES_BIN_DIR, CLAUDE_PLUGIN_OPTION_ENABLE_HOW_DO_I_GATE,
// PROCEDURES_ENABLE_HOW_DO_I_GATE.
package howdoigate

import (
	"io"
	"time"

	"github.com/procedures-go/procedures/failopen"
	"github.com/procedures-go/procedures/hookio"
	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/gate"
	"github.com/procedures-go/procedures/internal/offswitch"
	"github.com/procedures-go/procedures/internal/turnstate"
)

// hook is the gate: its fail-open rows, a panic's included, are recorded
// under gate.LabelHowDoI. The settings are read once, here; Decide only
// reads, and the verdict's rows are written after it.
var hook = cli.Hook{Help: help, Label: gate.LabelHowDoI, Body: func(stdin io.Reader, stdout, _ io.Writer, env cli.Env) int {
	s := config.HooksFrom(env.Get)
	st := turnstate.New(s.TurnState)
	Decide(gate.ReadPayload(stdin), s, st).Carry(s, st, gate.LabelHowDoI, stdout, time.Now())
	return 0
}}

// Main runs the gate; it returns 0 on every path, a panic included.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, env cli.Env) int {
	return hook.Main(args, stdin, stdout, stderr, env)
}

// Decide is the gate's verdict on one tool call: the deny line, or a
// release with the row that records it, or nothing. It writes nothing.
func Decide(p *hookio.Payload, s config.Hooks, st turnstate.Store) gate.Verdict {
	if gate.Subagent(p) || gate.Compliance(p) {
		return gate.Verdict{}
	}
	sid := turnstate.SessionKey(p)
	if !st.TurnStarted(sid) {
		return gate.Release(s, offswitch.HowDoIGate, failopen.WhyResetHookNeverRan, sid)
	}
	if st.IsMarked(sid, turnstate.HowDoI) {
		return gate.Verdict{}
	}
	if v, off := gate.SwitchedOff(s, offswitch.HowDoIGate, sid); off {
		return v
	}
	if !gate.SkillReadable(s.BinDir, gate.SkillHowDoI) {
		return gate.Verdict{Session: sid, FailOpen: failopen.WhySkillUnresolvable}
	}
	return gate.Verdict{Session: sid, Print: gate.DenyBashLine(gate.BashRefusal(p))}
}
