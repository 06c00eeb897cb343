package gate

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/turnstate"
)

// FuzzTurnActivity: the reader never panics, an in-memory transcript is
// always determined, a genuine prompt appended ends the turn's tool use and
// a tool_use appended starts it.
func FuzzTurnActivity(f *testing.F) {
	for _, s := range []string{"", prompt, prompt + "\n" + bashUse, bashUse + "\n[1,2]", "\xff\xfe{", `{"type":"user","message":{"content":[{"type":"text","text":null}]}}`,
		`{"type":"user","message":{"content":[{"type":"tool_result"}]}}`, "{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"tool_use\"}]}}\r\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := TurnActivity(bytes.NewReader(data), int64(len(data)))
		if want := forwardActivity(bytes.NewReader(data)); got != want {
			t.Fatalf("backward %v, forward %v on %q", got, want, data)
		}
		if got == Undetermined {
			t.Fatalf("an in-memory transcript was undetermined: %q", data)
		}
		withPrompt := append(append(append([]byte(nil), data...), '\n'), prompt...)
		if a := TurnActivity(bytes.NewReader(withPrompt), int64(len(withPrompt))); a != Idle {
			t.Fatalf("a prompt appended to %q: %v, want idle", data, a)
		}
		withUse := append(append(append([]byte(nil), data...), '\n'), bashUse...)
		if a := TurnActivity(bytes.NewReader(withUse), int64(len(withUse))); a != Used {
			t.Fatalf("a tool_use appended to %q: %v, want used", data, a)
		}
	})
}

var keyShape = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// FuzzPayload: decoding and classifying any stdin never panics, and the
// session key can only name a file directly in the turn-state directory.
func FuzzPayload(f *testing.F) {
	for _, s := range []string{`{}`, `not json`, `{"session_id":"../../etc/passwd","tool_name":"Read","tool_input":{"file_path":"../x"}}`,
		`{"session_id":{"a":[1,2.5e300]},"tool_name":"Agent","tool_input":{"prompt":"how-do-i"}}`,
		`{"tool_name":"Bash","tool_input":{"command":"ls | wc -l"}}`, `{"tool":"Bash","input":{"command":"rm x"}}`,
		`{"agent_id":1e999,"session_id":-0}`, `{"session_id":"a\u0000b\n"}`, `[` + strings.Repeat("[", 100) + `]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := ReadPayload(bytes.NewReader(data))
		Compliance(p)
		Subagent(p)
		if sid := turnstate.SessionKey(p); !keyShape.MatchString(sid) {
			t.Fatalf("session key %q from %q", sid, data)
		}
	})
}
