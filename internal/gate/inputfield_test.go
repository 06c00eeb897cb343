package gate

import (
	"testing"
)

func TestInputField(t *testing.T) {
	for _, c := range []struct {
		payload, want string
		ok            bool
	}{
		{`{"tool_input":{"command":"ls"}}`, `"ls"`, true},
		{`{"input":{"command":"ls"}}`, `"ls"`, true},
		{`{"tool_input":{"x":1},"input":{"command":"ls"}}`, `"ls"`, true},
		{`{"tool_input":null,"input":{"command":"ls"}}`, `"ls"`, true},
		{`{"tool_input":"str","input":{"command":"ls"}}`, ``, false}, // indexing a string is a jq error
		{`{"tool_input":{"command":false}}`, ``, false},
	} {
		p := decode(c.payload)
		v, ok := inputField(p, "command")
		if ok != c.ok || string(v) != c.want {
			t.Errorf("InputField(%s) = %s, %v; want %s, %v", c.payload, v, ok, c.want, c.ok)
		}
	}
}
