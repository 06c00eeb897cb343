package gate

import (
	"sync"

	"github.com/procedures-go/procedures/internal/jqtext"
)

// DenyReason is the how-do-i gate's deny message.
const DenyReason = "HOW-DO-I-GATE: this turn has not run Skill(procedures:how-do-i). Run it before acting, then retry. Gating is PER TURN by design — one user prompt is one turn, and a lookup from an earlier turn says nothing about what this turn is about to do, so a run earlier in the session does not carry over. The pass is bounded — a typical goal finishes in 3-4 Bash calls in a forked session, not a research project. File reads and read-only shell inspection stay available — look first, then ask, then act (CLAUDE.md invariant; enforced by hooks/how-do-i-gate.sh)."

// BlockReason is the am-i-done gate's block message.
const BlockReason = "AM-I-DONE: this turn used tools, and the work has not been reviewed. Run Skill(procedures:am-i-done) with a report of what you did and the evidence for it — each claim paired with the command you ran and its actual output. A reviewer will read it once and return follow-ups. Asked once per turn; the next Stop releases either way."

// The gates' decisions are constant: each is built once, on first use
// (not at start-up, which every command pays). Callers write them and
// never modify them.
var (
	// DenyLine is the how-do-i gate's deny line, Deny(DenyReason).
	DenyLine = sync.OnceValue(func() []byte { return Deny(DenyReason) })
	// BlockLine is the am-i-done gate's block line, Block(BlockReason).
	BlockLine = sync.OnceValue(func() []byte { return Block(BlockReason) })
)

// DenyBashLine is the how-do-i gate's deny line for a Bash command the
// shell reader refused for the given reason (see BashRefusal): the deny
// reason followed by a sentence naming it, so the agent can rewrite the
// command instead of retrying it. An empty reason gives DenyLine.
func DenyBashLine(reason string) []byte {
	if reason == "" {
		return DenyLine()
	}
	return Deny(DenyReason + " This Bash command is not judged read-only because it holds " + reason + ": rewrite it in plain form (one command a line, no control characters, continuations only between words).")
}

// Deny returns the PreToolUse deny line (compact JSON, keys in the order
// Claude Code documents, strings escaped as jq 1.6 escapes them, ending in
// a line feed).
func Deny(reason string) []byte {
	b := []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":`)
	b = jqtext.AppendString(b, reason)
	return append(b, "}}\n"...)
}

// Block returns the Stop block line.
func Block(reason string) []byte {
	b := []byte(`{"decision":"block","reason":`)
	b = jqtext.AppendString(b, reason)
	return append(b, "}\n"...)
}
