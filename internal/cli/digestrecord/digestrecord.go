// Package digestrecord implements the digest-record command. digest-record is the PostToolUse(Skill) hook that stores a forked
// /how-do-i scout's digest so the next scout of the same session starts warm.
//
// Usage (hooks.json, matcher "Skill"; the payload arrives on stdin):
//
//	digest-record
//
// It takes no arguments, never writes to stdout or stderr and always exits 0.
// A completed digest is stored with package digest; legitimate declines
// (another tool, another skill, a refused session id, a refusal, background
// or launch notice, a failed fork, a whitespace-only digest) leave no trace;
// blind failures append one record to the fail-open log under gate
// "digest-record": malformed-payload, non-object-payload,
// payload-shape-unrecognized or store-unwritable.
//
// Environment: SESSION_DIGEST_DIR, TURN_STATE_DIR, SESSION_DIGEST_TTL_DAYS,
// GATE_FAILOPEN_LOG, HOME.
package digestrecord

import (
	"errors"
	"io"

	"github.com/procedures-go/procedures/failopen"
	"github.com/procedures-go/procedures/hookio"
	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/sessionname"
	"github.com/procedures-go/procedures/internal/turnstate"
)

// gate is the name this hook records fail-opens under.
const gate = "digest-record"

// hook is digest-record (see cli.Hook).
var hook = cli.Hook{Help: help, Label: gate, Body: func(stdin io.Reader, _, _ io.Writer, env cli.Env) int {
	record(stdin, env)
	return 0
}}

// Main is the whole hook. Given any argument it only answers it (see
// cli.Help.Answer: no stdin, no log); otherwise it never writes to stdout or
// stderr. It returns 0 on every path; a panic is recorded as internal-error.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, env cli.Env) int {
	return hook.Main(args, stdin, stdout, stderr, env)
}

func record(stdin io.Reader, env cli.Env) {
	s := config.HooksFrom(env.Get)
	log := s.FailOpen()
	p, err := hookio.Read(stdin)
	switch {
	case errors.Is(err, hookio.ErrNonObject):
		log.Record(gate, failopen.WhyNonObjectPayload, "")
		return
	case err != nil: // a read error, over the cap, not one JSON value
		log.Record(gate, failopen.WhyMalformedPayload, "")
		return
	}
	res := p.Classify()
	if res.Shape == hookio.Other {
		return
	}
	key, ok := sessionname.Of(res.SessionID, sessionname.Digest)
	if !ok {
		return // the hook working as designed (cold start), not blind
	}
	switch {
	case res.Shape == hookio.Digest:
	case res.Shape == hookio.Benign:
		return
	default:
		log.Record(gate, failopen.WhyPayloadShapeUnrecognized, res.SessionID)
		return
	}
	store, err := turnstate.OpenDigests(s.TurnState, s.Digest)
	if err == nil {
		_, err = store.Write(key, res.Digest)
	}
	if err != nil {
		log.Record(gate, failopen.WhyStoreUnwritable, key)
	}
}
