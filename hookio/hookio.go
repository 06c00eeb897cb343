package hookio

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// Decoding errors. Both are blind failures: a hook records them
// ([ErrMalformed] as "malformed-payload", [ErrNonObject] as
// "non-object-payload") and lets the session go on.
var (
	// ErrMalformed: stdin is empty, is not exactly one JSON value, or is
	// null or false.
	ErrMalformed = errors.New("malformed hook payload")
	// ErrNonObject: stdin is one JSON string, number, true or array.
	ErrNonObject = errors.New("hook payload is not a JSON object")
)

// DecodeError wraps ErrMalformed or ErrNonObject with the underlying cause.
type DecodeError struct {
	Kind error // ErrMalformed or ErrNonObject
	Err  error // the JSON error, if any
}

func (e *DecodeError) Error() string {
	if e.Err != nil {
		return e.Kind.Error() + ": " + e.Err.Error()
	}
	return e.Kind.Error()
}

func (e *DecodeError) Unwrap() error { return e.Kind }

// Payload is a decoded hook payload: the top-level object's members, keys
// matched exactly (with duplicate keys the last one wins).
type Payload struct {
	fields map[string]json.RawMessage
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// Decode parses a hook payload. A leading UTF-8 BOM and surrounding
// whitespace are tolerated; anything after the first value is malformed, and
// so is a payload beyond the decoding limits ([MaxMembers], [MaxDepth]).
// Read the payload with [ReadPayload], which bounds its size.
func Decode(data []byte) (*Payload, error) {
	data = bytes.TrimPrefix(data, bom)
	if err := checkLimits(data); err != nil {
		return nil, &DecodeError{Kind: ErrMalformed, Err: err}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, &DecodeError{Kind: ErrMalformed, Err: err}
	}
	if rest := bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
		return nil, &DecodeError{Kind: ErrMalformed, Err: errors.New("trailing data after the JSON value")}
	}
	switch raw[0] {
	case 'n', 'f':
		return nil, &DecodeError{Kind: ErrMalformed}
	case '{':
	default:
		return nil, &DecodeError{Kind: ErrNonObject}
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, &DecodeError{Kind: ErrMalformed, Err: err}
	}
	return &Payload{fields: fields}, nil
}

// Field returns a top-level member, exactly as named.
func (p *Payload) Field(name string) (json.RawMessage, bool) {
	v, ok := p.fields[name]
	return v, ok
}

// truthy reports jq truthiness of a present value: anything but null and
// false.
func truthy(v json.RawMessage) bool {
	return len(v) > 0 && v[0] != 'n' && v[0] != 'f'
}

// first returns the first truthy member of obj among names.
func first(obj map[string]json.RawMessage, names ...string) (json.RawMessage, bool) {
	for _, n := range names {
		if v, ok := obj[n]; ok && truthy(v) {
			return v, true
		}
	}
	return nil, false
}

// text renders a value the way the hooks read jq's raw output: a string
// without its trailing LFs, anything else as its JSON text.
func text(v json.RawMessage) string {
	if v[0] == '"' {
		var s string
		json.Unmarshal(v, &s)
		return strings.TrimRight(s, "\n")
	}
	return string(v)
}

// ToolName is tool_name if truthy, else tool if truthy, else "" (a string's
// trailing LFs removed).
func (p *Payload) ToolName() string {
	if v, ok := first(p.fields, "tool_name", "tool"); ok {
		return text(v)
	}
	return ""
}

// Skill is tool_input.skill if truthy, else input.skill if truthy, else "".
// A tool_input (or, when that is absent or null, an input) that is present
// but not an object yields "" (jq fails to index it).
func (p *Payload) Skill() string {
	for _, name := range []string{"tool_input", "input"} {
		v, ok := p.fields[name]
		if !ok || v[0] == 'n' {
			continue
		}
		if v[0] != '{' {
			return ""
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(v, &obj) != nil {
			return ""
		}
		if s, ok := first(obj, "skill"); ok {
			return text(s)
		}
	}
	return ""
}

// isInteger reports whether a JSON number is written as an integer.
func isInteger(v []byte) bool {
	if len(v) > 0 && v[0] == '-' {
		v = v[1:]
	}
	for _, c := range v {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(v) > 0
}

// SessionID is session_id as text: a string without its trailing LFs, true
// as "true", an integer as its decimal text. It reports false when the id is
// missing, null or false, and for objects, arrays and non-integer numbers.
func (p *Payload) SessionID() (string, bool) {
	v, ok := first(p.fields, "session_id")
	if !ok {
		return "", false
	}
	switch {
	case v[0] == '"':
		return text(v), true
	case v[0] == 't', isInteger(v):
		return string(v), true
	}
	return "", false
}

// Response is tool_response if truthy, else response if truthy.
func (p *Payload) Response() (json.RawMessage, bool) {
	return first(p.fields, "tool_response", "response")
}

// IsHowDoI reports whether skill names the /how-do-i skill: exactly
// "how-do-i" or this plugin's "procedures:how-do-i" (never a look-alike such
// as "evil:how-do-i").
func IsHowDoI(skill string) bool {
	return skill == "how-do-i" || skill == "procedures:how-do-i"
}
