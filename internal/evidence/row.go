package evidence

import (
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"
)

// row is the part of a transcript row the sections read. Fields whose
// shape varies between Claude Code versions are kept raw and decoded only
// where a section needs them, so an odd shape costs that section its
// field, never the row.
type row struct {
	Type             string          `json:"type"`
	Subtype          string          `json:"subtype"`
	SessionID        string          `json:"sessionId"`
	AgentID          string          `json:"agentId"`
	IsSidechain      bool            `json:"isSidechain"`
	Timestamp        string          `json:"timestamp"`
	RequestID        string          `json:"requestId"`
	AttributionSkill string          `json:"attributionSkill"`
	HookErrors       json.RawMessage `json:"hookErrors"`
	ToolUseResult    json.RawMessage `json:"toolUseResult"`
	Message          struct {
		ID      string          `json:"id"`
		Model   string          `json:"model"`
		Content json.RawMessage `json:"content"`
		Usage   *rawUsage       `json:"usage"`
	} `json:"message"`
}

type block struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
	Content   json.RawMessage `json:"content"`
	Text      string          `json:"text"`
}

type toolInput struct {
	Command  string `json:"command"`
	FilePath string `json:"file_path"`
	Path     string `json:"path"`
	Pattern  string `json:"pattern"`
	Skill    string `json:"skill"`
}

type skillResult struct {
	CommandName string `json:"commandName"`
	Status      string `json:"status"`
	AgentID     string `json:"agentId"`
	Result      string `json:"result"`
}

// liteRow is the part of a main transcript's assistant row the sections
// read: decoding into it passes over the message's content without
// copying it (only forks' tool calls are read).
type liteRow struct {
	Type             string `json:"type"`
	SessionID        string `json:"sessionId"`
	AgentID          string `json:"agentId"`
	Timestamp        string `json:"timestamp"`
	RequestID        string `json:"requestId"`
	AttributionSkill string `json:"attributionSkill"`
	Message          struct {
		ID    string    `json:"id"`
		Model string    `json:"model"`
		Usage *rawUsage `json:"usage"`
	} `json:"message"`
}

// decodeLite is decodeRow for a main transcript's assistant row.
func decodeLite(line []byte, sk *Skipped) (*row, bool) {
	if !utf8.Valid(line) {
		sk.InvalidUTF8++
		return nil, false
	}
	l, valid, ok := decodeFast(line)
	if !ok {
		l = liteRow{}
		valid = json.Unmarshal(line, &l) == nil
	}
	if !valid {
		sk.InvalidJSON++
		return nil, false
	}
	if !knownType(l.Type) {
		sk.unknown([]byte(l.Type))
	}
	r := &row{Type: l.Type, SessionID: l.SessionID, AgentID: l.AgentID, Timestamp: l.Timestamp,
		RequestID: l.RequestID, AttributionSkill: l.AttributionSkill}
	r.Message.ID, r.Message.Model, r.Message.Usage = l.Message.ID, l.Message.Model, l.Message.Usage
	return r, true
}

// decodeRow decodes one line, counting it in sk when it is not valid
// UTF-8 or not a JSON object.
func decodeRow(line []byte, sk *Skipped) (*row, bool) {
	if !utf8.Valid(line) {
		sk.InvalidUTF8++
		return nil, false
	}
	var r row
	if err := json.Unmarshal(line, &r); err != nil {
		sk.InvalidJSON++
		return nil, false
	}
	if !knownType(r.Type) {
		sk.unknown([]byte(r.Type))
	}
	return &r, true
}

func (r *row) time() (time.Time, bool) {
	t, err := time.Parse(time.RFC3339Nano, r.Timestamp)
	return t, err == nil
}

func (r *row) blocks() []block {
	if len(r.Message.Content) == 0 || r.Message.Content[0] != '[' {
		return nil
	}
	var bs []block
	if json.Unmarshal(r.Message.Content, &bs) != nil {
		return nil
	}
	return bs
}

// contentText is the message content when it is a plain string.
func (r *row) contentText() string {
	if len(r.Message.Content) == 0 || r.Message.Content[0] != '"' {
		return ""
	}
	var s string
	_ = json.Unmarshal(r.Message.Content, &s)
	return s
}

// resultText flattens a tool_result's content: a string, or text blocks.
func resultText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' {
		var s string
		_ = json.Unmarshal(raw, &s)
		return s
	}
	var bs []block
	if json.Unmarshal(raw, &bs) != nil {
		return ""
	}
	var b strings.Builder
	for _, x := range bs {
		b.WriteString(x.Text)
	}
	return b.String()
}

func (r *row) hookErrors() []string {
	var es []string
	if len(r.HookErrors) > 0 && r.HookErrors[0] == '[' {
		_ = json.Unmarshal(r.HookErrors, &es)
	}
	return es
}
