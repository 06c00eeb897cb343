package gate

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strings"
	"unicode"

	"github.com/procedures-go/procedures/hookio"
	"github.com/procedures-go/procedures/internal/fsx"
)

// Activity is what a transcript says about the current turn.
type Activity int

const (
	// Used: a tool was used since the last genuine user prompt.
	Used Activity = iota
	// Idle: no tool use this turn.
	Idle
	// Undetermined: the transcript could not be found or read.
	Undetermined
	// OverCap: [MaxScan] bytes read from the end decided nothing.
	OverCap
)

func (a Activity) String() string {
	switch a {
	case Used:
		return "used"
	case Idle:
		return "idle"
	case OverCap:
		return "over-cap"
	}
	return "undetermined"
}

// MaxLine is the longest transcript line read as JSON (64 MiB). A longer line
// is skipped like any line that is not JSON.
const MaxLine = 64 << 20

// MaxScan is the most a transcript is read, backwards from its end, to
// find the current turn's start (128 MiB: twice [MaxLine], far more than a
// real turn's lines); past it the activity is [OverCap]. It bounds the
// Stop gate's cost on a huge or newline-free file.
const MaxScan = 128 << 20

// stopFeedback starts the user messages the harness injects after a Stop
// block; they do not begin a new turn.
const stopFeedback = "Stop hook feedback:"

// TurnActivity reads a JSONL transcript of size bytes backwards, from its
// end towards the start of the current turn, and reports whether the turn
// that its last genuine user prompt began used a tool. Each line is judged
// at most once, and reading stops at the first line that decides: a tool
// use (Used) or a genuine prompt (Idle), so the cost is proportional to the
// last turn, not to the transcript. Each line is one JSON object; a line
// that is blank, not JSON, not an object, or longer than [MaxLine] (its
// newline counted) is skipped, and so is a user line with a text block
// whose text is not a string.
//
//   - A user line whose text (its string content, or its text blocks joined
//     by spaces) is non-blank begins a new turn, unless the text starts with
//     "Stop hook feedback:" (leading white space ignored) or the content
//     holds a tool_result block.
//   - An assistant line whose content holds a tool_use block is tool use.
//
// A read error, or a file shorter than size, makes the result
// [Undetermined]; [MaxScan] bytes read without a decision make it
// [OverCap]. Memory is bounded by [MaxLine] plus one read block.
func TurnActivity(r io.ReaderAt, size int64) Activity {
	const block = 64 << 10
	buf := make([]byte, block)
	var (
		pieces [][]byte // the current line's bytes, last piece first
		n      int      // their total length
		over   bool     // the current line is longer than MaxLine
	)
	add := func(b []byte, owned bool) {
		if over || len(b) == 0 {
			return
		}
		if n+len(b) > MaxLine {
			over, pieces, n = true, nil, 0
			return
		}
		if !owned {
			b = append([]byte(nil), b...)
		}
		pieces = append(pieces, b)
		n += len(b)
	}
	// finish judges the line gathered so far and starts the next one.
	finish := func() effect {
		e := none
		if !over && n > 0 {
			line := pieces[0]
			if len(pieces) > 1 {
				line = make([]byte, 0, n)
				for i := len(pieces) - 1; i >= 0; i-- {
					line = append(line, pieces[i]...)
				}
			}
			e = lineEffect(line)
		}
		pieces, n, over = pieces[:0], 0, false
		return e
	}
	verdict := func(e effect) (Activity, bool) {
		switch e {
		case toolUse:
			return Used, true
		case newPrompt:
			return Idle, true
		}
		return Idle, false
	}
	pos := size
	for pos > 0 {
		if size-pos >= MaxScan {
			return OverCap
		}
		m := int64(block)
		if pos < m {
			m = pos
		}
		pos -= m
		chunk := buf[:m]
		got, err := r.ReadAt(chunk, pos)
		if int64(got) < m || err != nil && err != io.EOF {
			return Undetermined
		}
		end := len(chunk)
		for {
			i := bytes.LastIndexByte(chunk[:end], '\n')
			if i < 0 {
				add(chunk[:end], false)
				break
			}
			add(chunk[i+1:end], false)
			if a, ok := verdict(finish()); ok {
				return a
			}
			add([]byte{'\n'}, true) // the newline ends the line before it
			end = i
		}
	}
	a, _ := verdict(finish())
	return a
}

type effect int

const (
	none effect = iota
	toolUse
	newPrompt
)

// pySpace is white space as Python's str.strip sees it: Unicode White_Space
// plus the ASCII information separators.
func pySpace(r rune) bool {
	return unicode.IsSpace(r) || 0x1c <= r && r <= 0x1f
}

// lineEffect judges one transcript line.
func lineEffect(line []byte) effect {
	line = bytes.TrimFunc(line, pySpace)
	if len(line) == 0 || line[0] != '{' {
		return none
	}
	var entry struct {
		Type    json.RawMessage `json:"type"`
		Message json.RawMessage `json:"message"`
	}
	if json.Unmarshal(line, &entry) != nil {
		return none
	}
	typ := stringValue(entry.Type)
	if typ != "user" && typ != "assistant" {
		return none
	}
	var content json.RawMessage
	if len(entry.Message) > 0 && entry.Message[0] == '{' {
		var msg struct {
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(entry.Message, &msg) != nil {
			return none
		}
		content = msg.Content
	}
	var blocks []map[string]json.RawMessage
	isList := false
	if len(content) > 0 && content[0] == '[' {
		var raw []json.RawMessage
		if json.Unmarshal(content, &raw) != nil {
			return none
		}
		isList = true
		for _, el := range raw {
			var obj map[string]json.RawMessage
			if len(el) > 0 && el[0] == '{' && json.Unmarshal(el, &obj) == nil {
				blocks = append(blocks, obj)
			}
		}
	}
	if typ == "assistant" {
		for _, b := range blocks {
			if stringValue(b["type"]) == "tool_use" {
				return toolUse
			}
		}
		return none
	}
	var text string
	switch {
	case len(content) > 0 && content[0] == '"':
		text = stringValue(content)
	case isList:
		var parts []string
		for _, b := range blocks {
			if stringValue(b["type"]) != "text" {
				continue
			}
			t, present := b["text"]
			if !present {
				parts = append(parts, "")
				continue
			}
			if len(t) == 0 || t[0] != '"' {
				return none // a text that is not a string: skip the line
			}
			parts = append(parts, stringValue(t))
		}
		text = strings.Join(parts, " ")
	}
	if strings.HasPrefix(strings.TrimLeftFunc(text, pySpace), stopFeedback) {
		return none
	}
	for _, b := range blocks {
		if stringValue(b["type"]) == "tool_result" {
			return none
		}
	}
	if strings.TrimFunc(text, pySpace) != "" {
		return newPrompt
	}
	return none
}

// stringValue decodes a JSON string, or returns "" for anything else.
func stringValue(v json.RawMessage) string {
	if len(v) == 0 || v[0] != '"' {
		return ""
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return ""
	}
	return s
}

// OpenTranscript opens the session's transcript: the payload's
// transcript_path when it names a regular file that opens for reading, else
// the first regular file among $HOME/.claude/projects/*/<sid>.jsonl in
// byte order of the project directory names (hidden ones skipped, symlinks
// followed), home being $HOME (unset counts as empty). It returns nil when
// there is none or it cannot be opened.
func OpenTranscript(p *hookio.Payload, sid, home string) *os.File {
	if f := openRegular(p.TranscriptPath()); f != nil {
		return f
	}
	projects := home + "/.claude/projects"
	entries, err := os.ReadDir(projects)
	if err != nil {
		return nil
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		path := projects + "/" + e.Name() + "/" + sid + ".jsonl"
		if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
			return openRegular(path)
		}
	}
	return nil
}

// openRegular opens path for reading if it is a regular file (a FIFO is
// neither waited on nor read).
func openRegular(path string) *os.File {
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_RDONLY|fsx.NonBlock, 0)
	if err != nil {
		return nil
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil
	}
	return f
}
