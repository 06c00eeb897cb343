package gate

import (
	"io"
	"runtime/debug"
	"strings"

	"github.com/procedures-go/procedures/hookio"
	"github.com/procedures-go/procedures/internal/jqtext"
)

// largePayload is the payload size past which ReadPayload sets the soft
// memory limit payloadMemoryLimit for the rest of the (short-lived) hook.
const (
	largePayload       = 1 << 20
	payloadMemoryLimit = 24 << 20
)

// ReadPayload reads and decodes a hook payload. Any failure (a read error,
// more than [hookio.MaxPayload] bytes, not exactly one JSON object) yields
// nil, which every function of this package reads as a payload with every
// field absent.
func ReadPayload(r io.Reader) *hookio.Payload {
	data, err := hookio.ReadPayload(r)
	if err != nil {
		return nil
	}
	if len(data) > largePayload {
		// Decoding copies the payload a few times over; a soft limit makes
		// the collector reclaim each copy before the next, so a 15 MB Bash
		// command peaks under 64 MiB of RSS (issue 15) instead of ~100.
		debug.SetMemoryLimit(payloadMemoryLimit)
	}
	p, err := hookio.Decode(data)
	if err != nil {
		return nil
	}
	return p
}

// Field renders a top-level member as the hooks read it (jq -r, trailing
// line feeds removed); "" when it is absent, null or false.
func Field(p *hookio.Payload, name string) string {
	if p == nil {
		return ""
	}
	v, ok := p.First(name)
	if !ok {
		return ""
	}
	return strings.TrimRight(jqtext.Render(v), "\n")
}

// Subagent reports whether the call comes from a delegated subagent: a
// non-empty agent_id (a string, a number, true, an object or an array).
// Subagents are never gated.
func Subagent(p *hookio.Payload) bool {
	return Field(p, "agent_id") != ""
}

// ToolName is tool_name, else tool ("" for a nil payload).
func ToolName(p *hookio.Payload) string {
	if p == nil {
		return ""
	}
	return p.ToolName()
}

// Event is hook_event_name.
func Event(p *hookio.Payload) string { return Field(p, "hook_event_name") }
