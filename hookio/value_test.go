package hookio

import (
	"strings"
	"testing"
)

func mustRead(t *testing.T, payload string) *Payload {
	t.Helper()
	p, err := Read(strings.NewReader(payload))
	if err != nil {
		t.Fatalf("Read(%s): %v", payload, err)
	}
	return p
}

// Get is jq's .a // .b: the first member among the names that is present
// and neither null nor false; a dotted name is a path, and indexing a
// value that is neither an object nor null ends the whole chain with
// nothing (jq's error), whatever the names after it would give.
func TestGet(t *testing.T) {
	for _, c := range []struct {
		payload string
		paths   []string
		want    string // the Value's JSON text; "<nil>" for nil
	}{
		{`{"a":"x"}`, []string{"a"}, `"x"`},
		{`{}`, []string{"a"}, `<nil>`},
		{`{"a":null}`, []string{"a"}, `<nil>`},
		{`{"a":false}`, []string{"a"}, `<nil>`},
		{`{"a":""}`, []string{"a"}, `""`}, // an empty string is truthy
		{`{"a":0}`, []string{"a"}, `0`},
		{`{"a":null,"b":1}`, []string{"a", "b"}, `1`},
		{`{"a":false,"b":1}`, []string{"a", "b"}, `1`},
		{`{"a":2,"b":1}`, []string{"a", "b"}, `2`},
		{`{"a":1,"a":2}`, []string{"a"}, `2`}, // the last duplicate wins
		// The tool input's fallback chain, field by field.
		{`{"tool_input":{"command":"ls"}}`, []string{"tool_input.command", "input.command"}, `"ls"`},
		{`{"input":{"command":"ls"}}`, []string{"tool_input.command", "input.command"}, `"ls"`},
		{`{"tool_input":{"x":1},"input":{"command":"ls"}}`, []string{"tool_input.command", "input.command"}, `"ls"`},
		{`{"tool_input":null,"input":{"command":"ls"}}`, []string{"tool_input.command", "input.command"}, `"ls"`},
		{`{"tool_input":{"command":false},"input":{"command":"ls"}}`, []string{"tool_input.command", "input.command"}, `"ls"`},
		{`{"tool_input":{"command":false}}`, []string{"tool_input.command", "input.command"}, `<nil>`},
		// Indexing a string, a number, true, false or an array is an error
		// that ends the chain, even with input.command present.
		{`{"tool_input":"str","input":{"command":"ls"}}`, []string{"tool_input.command", "input.command"}, `<nil>`},
		{`{"tool_input":5,"input":{"command":"ls"}}`, []string{"tool_input.command", "input.command"}, `<nil>`},
		{`{"tool_input":true,"input":{"command":"ls"}}`, []string{"tool_input.command", "input.command"}, `<nil>`},
		{`{"tool_input":false,"input":{"command":"ls"}}`, []string{"tool_input.command", "input.command"}, `<nil>`},
		{`{"tool_input":[],"input":{"command":"ls"}}`, []string{"tool_input.command", "input.command"}, `<nil>`},
		{`{"tool_input":{},"input":"str"}`, []string{"tool_input.command", "input.command"}, `<nil>`},
		// A truthy first alternative is taken before a later one errs.
		{`{"tool_input":{"command":"ls"},"input":"str"}`, []string{"tool_input.command", "input.command"}, `"ls"`},
		{`{"a":{"b":{"c":[1]}}}`, []string{"a.b.c"}, `[1]`},
		{`{"a":{"b":null}}`, []string{"a.b.c"}, `<nil>`},
	} {
		got := "<nil>"
		if v := mustRead(t, c.payload).Get(c.paths...); v != nil {
			got = string(v)
		}
		if got != c.want {
			t.Errorf("%s: Get(%q) = %s, want %s", c.payload, c.paths, got, c.want)
		}
	}
}

// Text is jq -r's text without its trailing line feeds; Composite tells
// an object or array (which jq cannot join into a text) from a scalar.
func TestValueText(t *testing.T) {
	for _, c := range []struct {
		value, text string
		composite   bool
	}{
		{`"a\nb\n\n"`, "a\nb", false},
		{`1.50`, "1.5", false},
		{`true`, "true", false},
		{`false`, "", false},
		{`null`, "", false},
		{``, "", false},
		{`{"a":1}`, "{\n  \"a\": 1\n}", true},
		{`[]`, "[]", true},
	} {
		v := Value(c.value)
		if c.value == "" {
			v = nil
		}
		if got := v.Text(); got != c.text {
			t.Errorf("Value(%s).Text() = %q, want %q", c.value, got, c.text)
		}
		if got := v.Composite(); got != c.composite {
			t.Errorf("Value(%s).Composite() = %v, want %v", c.value, got, c.composite)
		}
	}
}

// ToolInput is tool_input if truthy, else input if truthy, read as an
// object; anything else (absent, or not an object) reads as a payload with
// every member absent.
func TestToolInput(t *testing.T) {
	for _, c := range []struct{ payload, want string }{
		{`{"tool_input":{"path":"a"},"input":{"path":"b"}}`, "a"},
		{`{"tool_input":null,"input":{"path":"b"}}`, "b"},
		{`{"tool_input":false,"input":{"path":"b"}}`, "b"},
		{`{"tool_input":{},"input":{"path":"b"}}`, ""}, // tool_input exists: input is ignored
		{`{"tool_input":"str","input":{"path":"b"}}`, ""},
		{`{"tool_input":[{"path":"a"}]}`, ""},
		{`{}`, ""},
	} {
		if got := mustRead(t, c.payload).ToolInput().Get("path").Text(); got != c.want {
			t.Errorf("%s: ToolInput().Get(path) = %q, want %q", c.payload, got, c.want)
		}
	}
}

// The common fields: the event as text, the transcript path as a file name.
func TestCommonFields(t *testing.T) {
	p := mustRead(t, `{"hook_event_name":"Stop\n","transcript_path":"/t/x.jsonl\n","cwd":"/w"}`)
	if got := p.Get("hook_event_name").Text(); got != "Stop" {
		t.Errorf("hook_event_name = %q", got)
	}
	// The transcript path names a file: taken as it is, trailing LF kept.
	if got := p.TranscriptPath(); got != "/t/x.jsonl\n" {
		t.Errorf("TranscriptPath = %q", got)
	}
	for _, tp := range []string{`5`, `true`, `{"a":"/x"}`, `null`, `false`} {
		if got := mustRead(t, `{"transcript_path":`+tp+`}`).TranscriptPath(); got != "" {
			t.Errorf("transcript_path %s: TranscriptPath = %q, want empty (not a string)", tp, got)
		}
	}
	if got := mustRead(t, `{"hook_event_name":5}`).Get("hook_event_name").Text(); got != "5" {
		t.Errorf("a number event = %q, want its jq text", got)
	}
}

// Every accessor reads a nil payload, and a nil Value, as absent.
func TestAccessorsNilSafe(t *testing.T) {
	var p *Payload
	if p.Get("a", "b.c") != nil || p.ToolInput() != nil || p.TranscriptPath() != "" {
		t.Error("a nil payload has a member")
	}
	if p.ToolInput().Get("x").Text() != "" || Value(nil).Composite() {
		t.Error("a nil value has a text or is composite")
	}
}
