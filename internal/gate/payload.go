package gate

import (
	"encoding/json"
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

// ReadPayload reads and decodes a hook payload with [hookio.Read]. Any
// failure (a read error, more than 16 MiB, not exactly one JSON object)
// yields nil, which every function of this package (and every accessor of
// hookio.Payload) reads as a payload with every field absent.
func ReadPayload(r io.Reader) *hookio.Payload {
	p, err := hookio.Read(&sizeWatch{r: r})
	if err != nil {
		return nil
	}
	return p
}

// sizeWatch passes reads through and, once more than largePayload bytes
// have passed, sets the soft memory limit: reading and decoding copy the
// payload a few times over, and the limit makes the collector reclaim each
// copy before the next, so a 15 MB Bash command peaks under 64 MiB of RSS
// (issue 15) instead of ~100.
type sizeWatch struct {
	r       io.Reader
	n       int
	limited bool
}

func (w *sizeWatch) Read(b []byte) (int, error) {
	n, err := w.r.Read(b)
	if w.n += n; w.n > largePayload && !w.limited {
		debug.SetMemoryLimit(payloadMemoryLimit)
		w.limited = true
	}
	return n, err
}

// truthy reports jq truthiness of a present value: anything but null and
// false.
func truthy(v json.RawMessage) bool {
	return len(v) > 0 && v[0] != 'n' && v[0] != 'f'
}

// first returns the first top-level member among names that is present and
// neither null nor false (jq's a // b // … chain).
func first(p *hookio.Payload, names ...string) (json.RawMessage, bool) {
	for _, n := range names {
		if v, ok := p.Field(n); ok && truthy(v) {
			return v, true
		}
	}
	return nil, false
}

// inputField is tool_input.<name> if truthy, else input.<name> if truthy
// (the chain the hooks read the Bash command with). A tool_input (or, when
// that is absent or null, an input) that is present but not an object ends
// the chain with nothing: jq fails to index it.
func inputField(p *hookio.Payload, name string) (json.RawMessage, bool) {
	for _, container := range []string{"tool_input", "input"} {
		v, ok := p.Field(container)
		if !ok || v[0] == 'n' {
			continue
		}
		if v[0] != '{' {
			return nil, false
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(v, &obj) != nil {
			return nil, false
		}
		if f, ok := obj[name]; ok && truthy(f) {
			return f, true
		}
	}
	return nil, false
}

// input returns the tool input object: tool_input if truthy, else input if
// truthy, else an empty object. It reports false when the chosen value is
// not an object (a field of it cannot be read).
func input(p *hookio.Payload) (map[string]json.RawMessage, bool) {
	v, ok := first(p, "tool_input", "input")
	if !ok {
		return map[string]json.RawMessage{}, true
	}
	if v[0] != '{' {
		return nil, false
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(v, &obj) != nil {
		return nil, false
	}
	return obj, true
}

// Field renders a top-level member as the hooks read it (jq -r, trailing
// line feeds removed); "" when it is absent, null or false.
func Field(p *hookio.Payload, name string) string {
	v, ok := first(p, name)
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
func ToolName(p *hookio.Payload) string { return p.ToolName() }

// Event is hook_event_name.
func Event(p *hookio.Payload) string { return Field(p, "hook_event_name") }
