package hookio

import (
	"encoding/json"
	"strings"

	"github.com/procedures-go/procedures/internal/jqtext"
)

// Value is one value of a payload, as its JSON text. The accessors return
// nil for a member that is absent, null or false: the hooks read them
// alike, as jq's // operator does, so a non-nil Value from [Payload.Get] is
// always truthy.
type Value json.RawMessage

// Get returns the first of paths whose value is present and neither null
// nor false (jq's .a // .b), or nil. A path is a member name, or names
// joined by dots that index objects within it: "tool_input.command".
// Indexing null gives null, so the chain goes on; indexing anything else
// that is not an object (a string, a number, true, false, an array) is an
// error in jq, and ends the whole chain with nil, whatever the paths after
// it would give. So
//
//	p.Get("tool_input.command", "input.command")
//
// is the command of a Bash call in either payload shape, and nothing when
// tool_input is a string.
func (p *Payload) Get(paths ...string) Value {
	if p == nil {
		return nil
	}
	for _, path := range paths {
		v, ok := p.lookup(path)
		if !ok {
			return nil
		}
		if truthy(v) {
			return Value(v)
		}
	}
	return nil
}

// lookup follows one dotted path. It reports false when it indexes a value
// that is neither an object nor null; a missing member is a nil value.
func (p *Payload) lookup(path string) (json.RawMessage, bool) {
	name, rest, nested := strings.Cut(path, ".")
	v := p.fields[name]
	for nested {
		if len(v) == 0 || v[0] == 'n' {
			return nil, true
		}
		if v[0] != '{' {
			return nil, false
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(v, &obj) != nil {
			return nil, false
		}
		name, rest, nested = strings.Cut(rest, ".")
		v = obj[name]
	}
	return v, true
}

// Text is the value as jq -r prints it, read through a shell command
// substitution the way the bash hooks read it: a string as its text, a
// number in jq's form (1.50 as 1.5), true as "true", an object or array
// pretty-printed, trailing line feeds removed. It is "" for nil, null and
// false.
func (v Value) Text() string {
	if !truthy(json.RawMessage(v)) {
		return ""
	}
	return text(json.RawMessage(v))
}

// Composite reports whether v is an object or an array, which jq cannot
// join into a text; a string, a number, true and nil are not.
func (v Value) Composite() bool {
	return len(v) > 0 && (v[0] == '{' || v[0] == '[')
}

// ToolInput is the tool call's input, read as a payload of its own: the
// members of tool_input if truthy, else of input if truthy. When neither
// is, or the chosen one is not an object, it is nil, which reads as an
// input with every member absent.
func (p *Payload) ToolInput() *Payload {
	v := p.Get("tool_input", "input")
	if len(v) == 0 || v[0] != '{' {
		return nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(v, &obj) != nil {
		return nil
	}
	return &Payload{fields: obj}
}

// TranscriptPath is transcript_path when it is a JSON string, taken as it
// is (it names a file: no line feed is trimmed), else "".
func (p *Payload) TranscriptPath() string {
	v := p.Get("transcript_path")
	if len(v) == 0 || v[0] != '"' {
		return ""
	}
	return jqtext.Render(json.RawMessage(v))
}
