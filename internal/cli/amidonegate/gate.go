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
// under gate.LabelAmIDone.
var hook = cli.Hook{Help: help, Label: gate.LabelAmIDone, Body: func(stdin io.Reader, stdout, _ io.Writer, env cli.Env) int {
	return gate.Run(stdin, stdout, env.Get, Decide)
}}

// Main runs the gate; it returns 0 on every path, a panic included.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, env cli.Env) int {
	return hook.Main(args, stdin, stdout, stderr, env)
}

// Decide returns the block line, or nil to let the Stop through (recording
// the release where one is recorded).
func Decide(p *hookio.Payload, env func(string) string, now time.Time) []byte {
	if p.Get("hook_event_name").Text() != "Stop" || config.Entrypoint(env) == "sdk-cli" || gate.Subagent(p) {
		return nil
	}
	sid := turnstate.SessionKey(p)
	st := turnstate.New(env)
	release := func(why string) []byte {
		gate.ReleaseOrFailOpen(env, offswitch.AmIDoneGate, gate.LabelAmIDone, why, sid, now)
		return nil
	}
	if !st.TurnStarted(sid) {
		return release(failopen.WhyResetHookNeverRan)
	}
	if st.IsMarked(sid, turnstate.AmIDone) || st.IsMarked(sid, turnstate.AmIDoneAsked) {
		return nil
	}
	activity := gate.Undetermined
	if f := gate.OpenTranscript(p, sid, env); f != nil {
		if fi, err := f.Stat(); err == nil {
			activity = gate.TurnActivity(f, fi.Size())
		}
		f.Close()
	}
	switch activity {
	case gate.Idle:
		return nil
	case gate.Undetermined, gate.OverCap:
		return release(failopen.WhyActivityUndetermined)
	}
	if !offswitch.EnabledOrLogRelease(offswitch.AmIDoneGate, env, now) {
		return nil
	}
	if !gate.SkillReadable(env, gate.SkillAmIDone) {
		gate.FailOpen(env, gate.LabelAmIDone, failopen.WhySkillUnresolvable, sid, now)
		return nil
	}
	if err := st.Mark(sid, turnstate.AmIDoneAsked); err != nil {
		gate.FailOpen(env, gate.LabelAmIDone, failopen.WhyStoreUnwritable, sid, now)
		return nil
	}
	return gate.BlockLine()
}
