package gate

import (
	"errors"
	"io"
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

// activity judges lines with the backward reader, and checks that the
// forward oracle agrees.
func activity(t *testing.T, lines ...string) Activity {
	t.Helper()
	s := strings.Join(lines, "\n")
	got := TurnActivity(strings.NewReader(s), int64(len(s)))
	if want := forwardActivity(strings.NewReader(s)); got != want {
		t.Errorf("backward reader %v, forward oracle %v on %.200q", got, want, s)
	}
	return got
}

func TestTurnActivity(t *testing.T) {
	for _, c := range []struct {
		id    string
		lines []string
		want  Activity
	}{
		{"empty transcript", nil, Idle},
		{"conversational turn", []string{prompt, chatReply}, Idle},
		{"prompt, tool_use, tool_result", []string{prompt, bashUse, result}, Used},
		{"Read counts", []string{prompt, readUse}, Used},
		{"Agent counts", []string{prompt, agentUse}, Used},
		{"a new prompt resets", []string{prompt, bashUse, result, prompt}, Idle},
		{"a new prompt then tool use", []string{prompt, bashUse, prompt, bashUse}, Used},
		{"Stop hook feedback string", []string{prompt, bashUse, `{"type":"user","message":{"content":"Stop hook feedback: x"}}`}, Used},
		{"Stop hook feedback block, leading spaces", []string{prompt, bashUse, `{"type":"user","message":{"content":[{"type":"text","text":"  \n Stop hook feedback: x"}]}}`}, Used},
		{"whitespace-only user text", []string{prompt, bashUse, `{"type":"user","message":{"content":"   \n\t"}}`}, Used},
		{"image-only user content", []string{prompt, bashUse, `{"type":"user","message":{"content":[{"type":"image","source":{}}]}}`}, Used},
		{"text plus tool_result", []string{prompt, bashUse, `{"type":"user","message":{"content":[{"type":"text","text":"hi"},{"type":"tool_result","content":"x"}]}}`}, Used},
		{"a non-JSON line is skipped", []string{prompt, bashUse, `garbage {`, ``, `   `}, Used},
		{"server_tool_use does not count", []string{prompt, `{"type":"assistant","message":{"content":[{"type":"server_tool_use"}]}}`}, Idle},
		{"string content mentioning tool_use does not count", []string{prompt, `{"type":"assistant","message":{"content":"tool_use"}}`}, Idle},
		{"a user tool_use block does not count", []string{prompt, `{"type":"user","message":{"content":[{"type":"tool_use"}]}}`}, Idle},
		{"message not an object", []string{prompt, bashUse, `{"type":"user","message":"do it"}`}, Used},
		{"text block without text", []string{prompt, bashUse, `{"type":"user","message":{"content":[{"type":"text"}]}}`}, Used},
		{"CRLF lines", []string{prompt + "\r", bashUse + "\r"}, Used},
		{"invalid UTF-8 in a string is replaced", []string{prompt, bashUse, "{\"type\":\"user\",\"message\":{\"content\":\"\xff new\"}}"}, Idle},
	} {
		if got := activity(t, c.lines...); got != c.want {
			t.Errorf("%s: %v, want %v", c.id, got, c.want)
		}
	}
}

// A JSON line that is not an object, or a text block whose text is not
// a string, is skipped instead of making the turn undetermined (the
// bash original's quirk, changed).
func TestTurnActivitySkipsOddLines(t *testing.T) {
	if got := activity(t, prompt, bashUse, `[1,2]`); got != Used {
		t.Errorf("a non-object line: %v, want used", got)
	}
	if got := activity(t, prompt, bashUse, `{"type":"user","message":{"content":[{"type":"text","text":null}]}}`); got != Used {
		t.Errorf("a null text: %v, want used (line skipped)", got)
	}
	if got := activity(t, prompt, bashUse, `{"type":"user","message":{"content":[{"type":"text","text":5},{"type":"text","text":"new"}]}}`); got != Used {
		t.Errorf("a numeric text: %v, want used (line skipped)", got)
	}
}

func TestTurnActivityLongLine(t *testing.T) {
	long := `{"type":"user","message":{"content":"` + strings.Repeat("x", MaxLine) + `"}}`
	if got := activity(t, prompt, bashUse, long); got != Used {
		t.Errorf("a line over MaxLine is skipped: %v, want used", got)
	}
	if got := activity(t, prompt, bashUse, long, prompt); got != Idle {
		t.Errorf("the line after an over-long line is read: %v, want idle", got)
	}
}

// Where the transcript is found.
func TestOpenTranscript(t *testing.T) {
	home := t.TempDir()
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
		f := OpenTranscript(p, "S", home)
		if f == nil {
			return "<none>"
		}
		defer f.Close()
		b, _ := os.ReadFile(f.Name())
		return string(b)
	}
	// The first regular match in sorted order.
	if got := read(nil); got != "a" {
		t.Errorf("glob picked %q, want a", got)
	}
	// transcript_path wins when it names a readable regular file.
	tp := write("elsewhere/t.jsonl", "tp")
	if got := read(decode(`{"transcript_path":"` + tp + `"}`)); got != "tp" {
		t.Errorf("transcript_path ignored: got %q", got)
	}
	// … and falls back to the glob otherwise.
	for _, bad := range []string{`"/nonexistent/t.jsonl"`, `"` + home + `"`, `""`, `5`} {
		if got := read(decode(`{"transcript_path":` + bad + `}`)); got != "a" {
			t.Errorf("transcript_path %s: got %q, want the glob's a", bad, got)
		}
	}
	if f := OpenTranscript(nil, "T", home); f != nil {
		t.Error("a missing transcript was found")
	}
}

// A line of exactly MaxLine bytes, newline counted, is read; one byte more
// and it is skipped; the same holds for a last line without a newline.
func TestTurnActivityMaxLineBoundary(t *testing.T) {
	pad := func(total int, text string) string { // a user line of total bytes
		head, tail := `{"type":"user","message":{"content":"`+text, `"}}`
		return head + strings.Repeat(" ", total-len(head)-len(tail)) + tail
	}
	if got := activity(t, prompt, bashUse, pad(MaxLine-1, "new"), ""); got != Idle {
		t.Errorf("a MaxLine line with its newline: %v, want idle (read)", got)
	}
	if got := activity(t, prompt, bashUse, pad(MaxLine, "new"), ""); got != Used {
		t.Errorf("a MaxLine+1 line with its newline: %v, want used (skipped)", got)
	}
	if got := activity(t, prompt, bashUse, pad(MaxLine, "new")); got != Idle {
		t.Errorf("a last line of MaxLine bytes: %v, want idle (read)", got)
	}
}

// Lines that straddle the 64 KiB read blocks, at every offset near a
// boundary, agree with the forward oracle.
func TestTurnActivityBlockBoundaries(t *testing.T) {
	for _, n := range []int{0, 1, 2, 63, 64<<10 - 2, 64<<10 - 1, 64 << 10, 64<<10 + 1, 128<<10 + 7} {
		filler := `{"type":"user","message":{"content":[{"type":"tool_result","content":"` + strings.Repeat("y", n) + `"}]}}`
		activity(t, prompt, bashUse, filler, chatReply)
		activity(t, bashUse, prompt, filler)
		activity(t, prompt, filler, "\r\n\n", bashUse+"\r", "")
	}
}

type failingReaderAt struct{}

func (failingReaderAt) ReadAt([]byte, int64) (int, error) { return 0, errors.New("EIO") }

func TestTurnActivityReadError(t *testing.T) {
	if got := TurnActivity(failingReaderAt{}, 10); got != Undetermined {
		t.Errorf("a read error: %v, want undetermined", got)
	}
	short := prompt + "\n" + bashUse
	if got := TurnActivity(strings.NewReader(short), int64(len(short))+5); got != Undetermined {
		t.Errorf("a file shorter than its size: %v, want undetermined", got)
	}
}

// countingReaderAt counts the bytes read through it.
type countingReaderAt struct {
	r io.ReaderAt
	n int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n += int64(n)
	return n, err
}

// bigTranscript is about size bytes of turns that used tools, the last of
// which is lastTurn.
func bigTranscript(size int, lastTurn string) string {
	turn := strings.Join([]string{prompt, bashUse,
		`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"` + strings.Repeat("o", 4000) + `"}]}}`,
		chatReply}, "\n") + "\n"
	var b strings.Builder
	for b.Len()+len(lastTurn) < size {
		b.WriteString(turn)
	}
	b.WriteString(lastTurn)
	return b.String()
}

// Cost proportional to the last turn: on a 7.7 MB transcript the reader
// reads no more than the last turn and one 64 KiB block.
func TestTurnActivityReadsOnlyTheLastTurn(t *testing.T) {
	for _, c := range []struct {
		name string
		last string
		want Activity
	}{
		{"idle last turn", prompt + "\n" + chatReply + "\n", Idle},
		{"last turn used a tool", prompt + "\n" + readUse + "\n" + result + "\n" + chatReply + "\n", Used},
		{"stop feedback after tool use", prompt + "\n" + bashUse + "\n" + `{"type":"user","message":{"content":"Stop hook feedback: x"}}` + "\n", Used},
	} {
		s := bigTranscript(7_700_000, c.last)
		cr := &countingReaderAt{r: strings.NewReader(s)}
		if got := TurnActivity(cr, int64(len(s))); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
		if want := forwardActivity(strings.NewReader(s)); want != c.want {
			t.Errorf("%s: the oracle says %v", c.name, want)
		}
		if limit := int64(len(c.last)) + 64<<10; cr.n > limit {
			t.Errorf("%s: read %d bytes of %d, want at most %d (the last turn and one block)", c.name, cr.n, len(s), limit)
		}
	}
}

func benchmarkTurnActivity(b *testing.B, size int) {
	s := bigTranscript(size, prompt+"\n"+readUse+"\n"+result+"\n"+chatReply+"\n")
	r := strings.NewReader(s)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if TurnActivity(r, int64(len(s))) != Used {
			b.Fatal("not used")
		}
	}
}

func BenchmarkTurnActivity77KB(b *testing.B)  { benchmarkTurnActivity(b, 77_000) }
func BenchmarkTurnActivity7_7MB(b *testing.B) { benchmarkTurnActivity(b, 7_700_000) }

// The forward reader it replaced, for comparison.
func BenchmarkForwardActivity7_7MB(b *testing.B) {
	s := bigTranscript(7_700_000, prompt+"\n"+readUse+"\n"+result+"\n"+chatReply+"\n")
	for b.Loop() {
		forwardActivity(strings.NewReader(s))
	}
}
