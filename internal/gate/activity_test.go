package gate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/hookio"
)

const (
	prompt    = `{"type":"user","message":{"role":"user","content":"do the thing"}}`
	bashUse   = `{"type":"assistant","message":{"content":[{"type":"text","text":"ok"},{"type":"tool_use","name":"Bash","input":{}}]}}`
	readUse   = `{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Read","input":{}}]}}`
	result    = `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"out"}]}}`
	agentUse  = `{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Agent","input":{}}]}}`
	chatReply = `{"type":"assistant","message":{"content":[{"type":"text","text":"hello"}]}}`
)

func activity(lines ...string) Activity {
	return TurnActivity(strings.NewReader(strings.Join(lines, "\n")))
}

func TestTurnActivity(t *testing.T) {
	for _, c := range []struct {
		id    string
		lines []string
		want  Activity
	}{
		{"TA-01 empty transcript", nil, Idle},
		{"TA-01 conversational turn", []string{prompt, chatReply}, Idle},
		{"TA-02 prompt, tool_use, tool_result", []string{prompt, bashUse, result}, Used},
		{"TA-02 Read counts", []string{prompt, readUse}, Used},
		{"AD-04 Agent counts", []string{prompt, agentUse}, Used},
		{"TA-03 a new prompt resets", []string{prompt, bashUse, result, prompt}, Idle},
		{"TA-03 a new prompt then tool use", []string{prompt, bashUse, prompt, bashUse}, Used},
		{"TA-04 Stop hook feedback string", []string{prompt, bashUse, `{"type":"user","message":{"content":"Stop hook feedback: x"}}`}, Used},
		{"TA-04 Stop hook feedback block, leading spaces", []string{prompt, bashUse, `{"type":"user","message":{"content":[{"type":"text","text":"  \n Stop hook feedback: x"}]}}`}, Used},
		{"TA-05 whitespace-only user text", []string{prompt, bashUse, `{"type":"user","message":{"content":"   \n\t"}}`}, Used},
		{"TA-05 image-only user content", []string{prompt, bashUse, `{"type":"user","message":{"content":[{"type":"image","source":{}}]}}`}, Used},
		{"TA-05 text plus tool_result", []string{prompt, bashUse, `{"type":"user","message":{"content":[{"type":"text","text":"hi"},{"type":"tool_result","content":"x"}]}}`}, Used},
		{"TA-06 a non-JSON line is skipped", []string{prompt, bashUse, `garbage {`, ``, `   `}, Used},
		{"TA-07 server_tool_use does not count", []string{prompt, `{"type":"assistant","message":{"content":[{"type":"server_tool_use"}]}}`}, Idle},
		{"TA-07 string content mentioning tool_use does not count", []string{prompt, `{"type":"assistant","message":{"content":"tool_use"}}`}, Idle},
		{"TA-07 a user tool_use block does not count", []string{prompt, `{"type":"user","message":{"content":[{"type":"tool_use"}]}}`}, Idle},
		{"message not an object", []string{prompt, bashUse, `{"type":"user","message":"do it"}`}, Used},
		{"text block without text", []string{prompt, bashUse, `{"type":"user","message":{"content":[{"type":"text"}]}}`}, Used},
		{"CRLF lines", []string{prompt + "\r", bashUse + "\r"}, Used},
		{"invalid UTF-8 in a string is replaced", []string{prompt, bashUse, "{\"type\":\"user\",\"message\":{\"content\":\"\xff new\"}}"}, Idle},
	} {
		if got := activity(c.lines...); got != c.want {
			t.Errorf("%s: %v, want %v", c.id, got, c.want)
		}
	}
}

// L-21: a JSON line that is not an object, or a text block whose text is not
// a string, is skipped instead of making the turn undetermined (TA-06's
// upstream quirk, changed).
func TestTurnActivitySkipsOddLines(t *testing.T) {
	if got := activity(prompt, bashUse, `[1,2]`); got != Used {
		t.Errorf("L-21: a non-object line: %v, want used", got)
	}
	if got := activity(prompt, bashUse, `{"type":"user","message":{"content":[{"type":"text","text":null}]}}`); got != Used {
		t.Errorf("L-21: a null text: %v, want used (line skipped)", got)
	}
	if got := activity(prompt, bashUse, `{"type":"user","message":{"content":[{"type":"text","text":5},{"type":"text","text":"new"}]}}`); got != Used {
		t.Errorf("L-21: a numeric text: %v, want used (line skipped)", got)
	}
}

func TestTurnActivityLongLine(t *testing.T) {
	long := `{"type":"user","message":{"content":"` + strings.Repeat("x", MaxLine) + `"}}`
	if got := activity(prompt, bashUse, long); got != Used {
		t.Errorf("a line over MaxLine is skipped: %v, want used", got)
	}
	if got := activity(prompt, bashUse, long, prompt); got != Idle {
		t.Errorf("the line after an over-long line is read: %v, want idle", got)
	}
}

// TA-08 and L-20: where the transcript is found.
func TestOpenTranscript(t *testing.T) {
	home := t.TempDir()
	env := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	write := func(rel, content string) string {
		p := filepath.Join(home, rel)
		os.MkdirAll(filepath.Dir(p), 0o777)
		os.WriteFile(p, []byte(content), 0o666)
		return p
	}
	write(".claude/projects/b/S.jsonl", "b")
	write(".claude/projects/a/S.jsonl", "a")
	write(".claude/projects/.hidden/S.jsonl", "hidden")
	os.MkdirAll(filepath.Join(home, ".claude/projects/0/S.jsonl"), 0o777) // not a regular file
	read := func(p *hookio.Payload) string {
		f := OpenTranscript(p, "S", env)
		if f == nil {
			return "<none>"
		}
		defer f.Close()
		b, _ := os.ReadFile(f.Name())
		return string(b)
	}
	// TA-08: the first regular match in sorted order.
	if got := read(nil); got != "a" {
		t.Errorf("TA-08: glob picked %q, want a", got)
	}
	// L-20: transcript_path wins when it names a readable regular file.
	tp := write("elsewhere/t.jsonl", "tp")
	if got := read(decode(`{"transcript_path":"` + tp + `"}`)); got != "tp" {
		t.Errorf("L-20: transcript_path ignored: got %q", got)
	}
	// … and falls back to the glob otherwise.
	for _, bad := range []string{`"/nonexistent/t.jsonl"`, `"` + home + `"`, `""`, `5`} {
		if got := read(decode(`{"transcript_path":` + bad + `}`)); got != "a" {
			t.Errorf("L-20: transcript_path %s: got %q, want the glob's a", bad, got)
		}
	}
	if f := OpenTranscript(nil, "T", env); f != nil {
		t.Error("TA-01: a missing transcript was found")
	}
}
