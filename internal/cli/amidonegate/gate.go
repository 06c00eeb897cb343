// Package amidonegate is the am-i-done-gate command, the Stop hook that
// blocks a main agent's first Stop of a turn that used tools until
// Skill(procedures:am-i-done) has reviewed the work.
//
// Usage (hooks.json, event Stop):
//
//	am-i-done-gate
//
// In order: anything but a Stop event, the sdk-cli entrypoint and a
// subagent pass; a session whose turn was never started is released and
// recorded (reset-hook-never-ran); a turn that ran the skill, or was already
// asked once, passes; a turn without tool use passes; a turn whose
// transcript cannot be read is released and recorded
// (activity-undetermined), and so is one whose last gate.MaxScan bytes
// (128 MiB, read backwards) decide nothing; a switched-off gate passes (escape record); a
// missing skills/am-i-done/SKILL.md passes (skill-unresolvable); otherwise
// the asked marker is written and the block JSON printed. If the marker
// cannot be written the Stop is released and recorded (store-unwritable),
// so a turn is never asked twice. It always exits 0; stderr stays empty.
//
// The transcript is the payload's transcript_path when that is a readable
// regular file, else the first $HOME/.claude/projects/*/<session>.jsonl.
//
// Environment: TURN_STATE_DIR, GATE_FAILOPEN_LOG, GATE_ESCAPE_LOG, HOME,
// PROCEDURES_BIN_DIR, CLAUDE_CODE_ENTRYPOINT,
// CLAUDE_PLUGIN_OPTION_ENABLE_AM_I_DONE_GATE, PROCEDURES_ENABLE_AM_I_DONE_GATE.
package amidonegate

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
// under gate.LabelAmIDone. The settings are read once, here; Decide only
// reads, and the verdict's marker and rows are written after it.
var hook = cli.Hook{Help: help, Label: gate.LabelAmIDone, Body: func(stdin io.Reader, stdout, _ io.Writer, env cli.Env) int {
	s := config.HooksFrom(env.Get)
	st := turnstate.New(s.TurnState)
	Decide(gate.ReadPayload(stdin), s, st).Carry(s, st, gate.LabelAmIDone, stdout, time.Now())
	return 0
}}

// Main runs the gate; it returns 0 on every path, a panic included.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, env cli.Env) int {
	return hook.Main(args, stdin, stdout, stderr, env)
}

// Decide is the gate's verdict on one Stop: the block line with the asked
// marker to write first, or a release with the row that records it, or
// nothing. It writes nothing.
func Decide(p *hookio.Payload, s config.Hooks, st turnstate.Store) gate.Verdict {
	if p.Get("hook_event_name").Text() != "Stop" || s.Entrypoint == "sdk-cli" || gate.Subagent(p) {
		return gate.Verdict{}
	}
	sid := turnstate.SessionKey(p)
	if !st.TurnStarted(sid) {
		return gate.Release(s, offswitch.AmIDoneGate, failopen.WhyResetHookNeverRan, sid)
	}
	if st.IsMarked(sid, turnstate.AmIDone) || st.IsMarked(sid, turnstate.AmIDoneAsked) {
		return gate.Verdict{}
	}
	switch activity(p, sid, s.Home) {
	case gate.Idle:
		return gate.Verdict{}
	case gate.Undetermined, gate.OverCap:
		return gate.Release(s, offswitch.AmIDoneGate, failopen.WhyActivityUndetermined, sid)
	}
	if v, off := gate.SwitchedOff(s, offswitch.AmIDoneGate, sid); off {
		return v
	}
	if !gate.SkillReadable(s.BinDir, gate.SkillAmIDone) {
		return gate.Verdict{Session: sid, FailOpen: failopen.WhySkillUnresolvable}
	}
	return gate.Verdict{Session: sid, Print: gate.BlockLine(), Mark: turnstate.AmIDoneAsked}
}

// activity is what the session's transcript says about the current turn
// (gate.Undetermined when there is none to read).
func activity(p *hookio.Payload, sid, home string) gate.Activity {
	f := gate.OpenTranscript(p, sid, home)
	if f == nil {
		return gate.Undetermined
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return gate.Undetermined
	}
	return gate.TurnActivity(f, fi.Size())
}
