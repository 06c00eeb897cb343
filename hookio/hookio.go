package hookio

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/procedures-go/procedures/internal/jqtext"
)

// The kinds of [DecodeError]. Each is a blind failure: a hook records it
// (ErrNonObject as "non-object-payload", the others as "malformed-payload")
// and lets the session go on.
var (
	// ErrMalformed: the payload is empty, is not exactly one JSON value, is
	// null or false, or is beyond the decoding limits (see [Read]).
	ErrMalformed = errors.New("malformed hook payload")
	// ErrNonObject: the payload is one JSON string, number, true or array.
	ErrNonObject = errors.New("hook payload is not a JSON object")
	// ErrTooLarge: the payload is longer than 16 MiB.
	ErrTooLarge = errors.New("hook payload too large")
)

// DecodeError reports a payload [Read] refused. It unwraps to both its Kind
// (errors.Is(err, ErrMalformed)) and, when there is one, the underlying
// error (errors.As(err, &syntaxErr) with a *json.SyntaxError, say).
type DecodeError struct {
	Kind error // ErrMalformed, ErrNonObject or ErrTooLarge; nil means ErrMalformed
	Err  error // the underlying error, if any
}

func (e *DecodeError) kind() error {
	if e.Kind == nil {
		return ErrMalformed
	}
	return e.Kind
}

func (e *DecodeError) Error() string {
	if e.Err != nil {
		return e.kind().Error() + ": " + e.Err.Error()
	}
	return e.kind().Error()
}

// Unwrap returns the kind and, when there is one, the underlying error.
func (e *DecodeError) Unwrap() []error {
	if e.Err != nil {
		return []error{e.kind(), e.Err}
	}
	return []error{e.kind()}
}

// Payload is a decoded hook payload: the top-level object's members, keys
// matched exactly and case-sensitively (with duplicate keys the last one
// wins). Its accessors read a nil *Payload (or the zero Payload) as a
// payload with every member absent.
type Payload struct {
	fields map[string]json.RawMessage
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// decode parses a whole payload (see [Read]).
func decode(data []byte) (*Payload, error) {
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

// field returns a top-level member, exactly as named, as its JSON text.
func (p *Payload) field(name string) (json.RawMessage, bool) {
	if p == nil {
		return nil, false
	}
	v, ok := p.fields[name]
	return v, ok
}

// truthy reports jq truthiness of a present value: anything but null and
// false.
func truthy(v json.RawMessage) bool {
	return len(v) > 0 && v[0] != 'n' && v[0] != 'f'
}

// first returns the first truthy member of obj among names (jq's a // b).
func first(obj map[string]json.RawMessage, names ...string) (json.RawMessage, bool) {
	for _, n := range names {
		if v, ok := obj[n]; ok && truthy(v) {
			return v, true
		}
	}
	return nil, false
}

// text renders a value the way the hooks read jq's raw output through a
// shell command substitution: jq -r's text without its trailing LFs.
func text(v json.RawMessage) string {
	return strings.TrimRight(jqtext.Render(v), "\n")
}

// ToolName is tool_name if truthy, else tool if truthy, else "", as text (a
// string without its trailing LFs).
func (p *Payload) ToolName() string {
	return p.Get("tool_name", "tool").Text()
}

// Skill is tool_input.skill if truthy, else input.skill if truthy, else "",
// as text. A tool_input (or, when that is absent or null, an input) that is
// present but not an object yields "" (jq fails to index it).
func (p *Payload) Skill() string {
	return p.Get("tool_input.skill", "input.skill").Text()
}

// SessionID is session_id as jq -r renders it, trailing LFs removed: a
// string as its text, a number in jq's form (1.50 as 1.5), true as "true",
// an object or array pretty-printed. It reports false when the id is
// missing, null or false. Every hook derives its session key from this one
// text.
func (p *Payload) SessionID() (string, bool) {
	v := p.Get("session_id")
	if v == nil {
		return "", false
	}
	return v.Text(), true
}

// response is tool_response if truthy, else response if truthy.
func (p *Payload) response() (json.RawMessage, bool) {
	return first(p.fields, "tool_response", "response")
}

// isHowDoI reports whether skill names the /how-do-i skill: exactly
// "how-do-i" or this plugin's "procedures:how-do-i" (never a look-alike such
// as "evil:how-do-i").
func isHowDoI(skill string) bool {
	return skill == "how-do-i" || skill == "procedures:how-do-i"
}
