package hookio

import "encoding/json"

// First returns the first top-level member among names that is present and
// neither null nor false (jq's a // b // … chain).
func (p *Payload) First(names ...string) (json.RawMessage, bool) {
	return first(p.fields, names...)
}

// InputField is tool_input.<name> if truthy, else input.<name> if truthy
// (the chain the hooks read the skill and the Bash command with). A
// tool_input (or, when that is absent or null, an input) that is present but
// not an object ends the chain with nothing: jq fails to index it.
func (p *Payload) InputField(name string) (json.RawMessage, bool) {
	for _, container := range []string{"tool_input", "input"} {
		v, ok := p.fields[container]
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
		if f, ok := first(obj, name); ok {
			return f, true
		}
	}
	return nil, false
}

// Input returns the tool input object: tool_input if truthy, else input if
// truthy, else an empty object. It reports false when the chosen value is
// not an object (a field of it cannot be read).
func (p *Payload) Input() (map[string]json.RawMessage, bool) {
	v, ok := p.First("tool_input", "input")
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

// Truthy reports whether a present value is neither null nor false.
func Truthy(v json.RawMessage) bool { return truthy(v) }
