// Package e2e is the end-to-end suite: it drives the real Claude Code CLI,
// offline, against Mock, a local stand-in for the Messages API, with the
// procedures bundle installed as a plugin. The tests are TestE2E… in this
// package and run only with PROCEDURES_E2E=1 (see CONTRIBUTING.md, "The
// end-to-end suite").
package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"
)

// ForkMarker is a line of the test how-do-i skill's body: a request whose
// messages carry it comes from the forked skill's subagent.
const ForkMarker = "E2E-FORK-SUBAGENT"

// runLine is where the fork's prompt names the command line it must run.
var runLine = regexp.MustCompile(`E2E-RUN: (.+)`)

// Last is what the model is answering: the last user message of a request.
type Last struct {
	ToolResult string // the text of its tool_result blocks
	IsError    bool   // a tool_result with is_error: true
	HasResult  bool   // it carries a tool_result
	Text       string // every text in it, tool results included
}

// Reply is one assistant message: text, or one tool call (with text beside
// it when both are set).
type Reply struct {
	Text  string
	Tool  string
	Input map[string]any
}

// A Step answers a main-agent request; it sees the last user message.
type Step func(Last) Reply

// Request is one logged request.
type Request struct {
	Path string
	Kind string // "main", "fork", "other"
	Body string
	Last Last
	At   time.Time
}

// Mock is a scripted, reactive Messages API.
type Mock struct {
	URL string
	srv *http.Server

	mu       sync.Mutex
	steps    []Step
	requests []Request
	forkRuns []string // command lines the fork was told to run
	errs     []string
	ids      int
	literal  bool // forks are played by the literal executor (literal.go)
}

// NewMock listens on 127.0.0.1, a random port.
func NewMock() (*Mock, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	m := &Mock{URL: "http://" + ln.Addr().String()}
	m.srv = &http.Server{Handler: m}
	go m.srv.Serve(ln)
	return m, nil
}

// Close stops the server.
func (m *Mock) Close() { m.srv.Close() }

// Script replaces the main agent's script; when it runs out the model ends
// its turn with "done.".
func (m *Mock) Script(steps ...Step) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.steps = append([]Step(nil), steps...)
}

// Remaining is how many scripted steps were not used.
func (m *Mock) Remaining() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.steps)
}

// Requests returns the logged requests.
func (m *Mock) Requests() []Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Request(nil), m.requests...)
}

// ForkRuns returns the command lines the fork found in its prompt and ran.
func (m *Mock) ForkRuns() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.forkRuns...)
}

// Errors returns what the mock could not make sense of.
func (m *Mock) Errors() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.errs...)
}

type message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type block struct {
	Type    string          `json:"type"`
	Text    string          `json:"text"`
	IsError bool            `json:"is_error"`
	Content json.RawMessage `json:"content"`
}

type request struct {
	Stream   bool      `json:"stream"`
	Model    string    `json:"model"`
	Messages []message `json:"messages"`
	Tools    []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

// blocks reads a content field: a string or an array of blocks.
func blocks(raw json.RawMessage) []block {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []block{{Type: "text", Text: s}}
	}
	var bs []block
	json.Unmarshal(raw, &bs)
	return bs
}

// lastOf reads the messages after the last assistant message (the user's,
// and the system messages 2.1.332 sends hook feedback in).
func lastOf(msgs []message) Last {
	var l Last
	i := len(msgs)
	for i > 0 && msgs[i-1].Role != "assistant" {
		i--
	}
	var all []string
	for _, msg := range msgs[i:] {
		for _, b := range blocks(msg.Content) {
			switch b.Type {
			case "text":
				all = append(all, b.Text)
			case "tool_result":
				l.HasResult = true
				l.IsError = l.IsError || b.IsError
				var text string
				for _, c := range blocks(b.Content) {
					text += c.Text
				}
				l.ToolResult += text
				all = append(all, text)
			}
		}
	}
	l.Text = strings.Join(all, "\n")
	return l
}

func (m *Mock) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if strings.HasSuffix(r.URL.Path, "/count_tokens") {
		m.log(Request{Path: r.URL.Path, Kind: "other", Body: string(body)})
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"input_tokens":10}`)
		return
	}
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/v1/messages") {
		m.log(Request{Path: r.URL.Path, Kind: "other", Body: string(body)})
		http.NotFound(w, r)
		return
	}
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		m.fail("unparseable request: %v", err)
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	last := lastOf(req.Messages)
	kind := "other"
	for _, t := range req.Tools {
		if t.Name == "Bash" {
			kind = "main"
		}
	}
	if kind == "main" && strings.Contains(string(body), ForkMarker) {
		kind = "fork"
	}
	m.mu.Lock()
	literal := m.literal
	m.mu.Unlock()
	if literal && skillFork(req) {
		kind = "fork"
	}
	m.log(Request{Path: r.URL.Path, Kind: kind, Body: string(body), Last: last})
	var reply Reply
	switch kind {
	case "fork":
		if literal {
			reply = m.literalReply(req)
		} else {
			reply = m.forkReply(req, last)
		}
	case "main":
		m.mu.Lock()
		var step Step
		if len(m.steps) > 0 {
			step, m.steps = m.steps[0], m.steps[1:]
		}
		m.mu.Unlock()
		if step != nil {
			reply = step(last)
		} else {
			reply = Reply{Text: "done."}
		}
	default:
		reply = Reply{Text: "ok"}
	}
	m.respond(w, req, reply)
}

// forkReply plays the forked skill's model: it runs the command line its
// prompt names, then answers with a digest carrying what it printed.
func (m *Mock) forkReply(req request, last Last) Reply {
	if last.HasResult {
		return Reply{Text: "GOAL: e2e\n\nCOMMANDS (verbatim):\n  $ touch marker\n\nWARM-READ:\n" + last.ToolResult}
	}
	var cmd string
	for _, msg := range req.Messages {
		for _, b := range blocks(msg.Content) {
			if s := runLine.FindStringSubmatch(b.Text); s != nil {
				cmd = strings.TrimSpace(s[1])
			}
		}
	}
	if cmd == "" {
		m.fail("fork request without an E2E-RUN line")
		return Reply{Text: "GOAL: e2e (no command found)"}
	}
	m.mu.Lock()
	m.forkRuns = append(m.forkRuns, cmd)
	m.mu.Unlock()
	return Reply{Tool: "Bash", Input: map[string]any{"command": cmd, "description": "warm start: read prior digests"}}
}

func (m *Mock) log(r Request) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r.At = time.Now()
	m.requests = append(m.requests, r)
}

func (m *Mock) fail(format string, args ...any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.errs = append(m.errs, fmt.Sprintf(format, args...))
}

func (m *Mock) nextID(prefix string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ids++
	return fmt.Sprintf("%s_mock_%06d", prefix, m.ids)
}

func (m *Mock) respond(w http.ResponseWriter, req request, r Reply) {
	var content []map[string]any
	if r.Text != "" {
		content = append(content, map[string]any{"type": "text", "text": r.Text})
	}
	stop := "end_turn"
	if r.Tool != "" {
		content = append(content, map[string]any{"type": "tool_use", "id": m.nextID("toolu"), "name": r.Tool, "input": r.Input})
		stop = "tool_use"
	}
	model := req.Model
	if model == "" {
		model = "claude-mock"
	}
	usage := map[string]any{"input_tokens": 10, "output_tokens": 10}
	msg := map[string]any{"id": m.nextID("msg"), "type": "message", "role": "assistant", "model": model,
		"stop_reason": stop, "stop_sequence": nil, "usage": usage, "content": content}
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(msg)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	send := func(event string, data map[string]any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
	}
	start := map[string]any{}
	for k, v := range msg {
		start[k] = v
	}
	start["content"] = []any{}
	start["stop_reason"] = nil
	send("message_start", map[string]any{"type": "message_start", "message": start})
	for i, c := range content {
		switch c["type"] {
		case "text":
			send("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "text", "text": ""}})
			send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "text_delta", "text": c["text"]}})
		case "tool_use":
			send("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": c["id"], "name": c["name"], "input": map[string]any{}}})
			in, _ := json.Marshal(c["input"])
			send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": string(in)}})
		}
		send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	send("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 10}})
	send("message_stop", map[string]any{"type": "message_stop"})
}
