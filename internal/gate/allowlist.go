package gate

import (
	"encoding/json"
	"strings"

	"github.com/procedures-go/procedures/hookio"
	"github.com/procedures-go/procedures/internal/jqtext"
	"github.com/procedures-go/procedures/internal/shellread"
)

// Compliance reports whether a tool call is on the compliance path: it is
// never denied, whatever is outstanding. Tool names match exactly.
//
//   - Skill, WebFetch, WebSearch, TodoWrite, BashOutput: always.
//   - Agent and Task (its older name): a procedure-scout or work-reviewer
//     dispatch, or one whose description, prompt or subagent type names the
//     how-do-i or am-i-done skill.
//   - Read, NotebookRead, LS: the path (file_path, else notebook_path, else
//     path) holds no "..". Grep: path and glob hold no "..". Glob: path and
//     pattern hold no "..". An input that is not an object passes.
//   - Bash: the command is read-only ([shellread.ReadOnly]).
//   - anything else: never.
func Compliance(p *hookio.Payload) bool {
	switch ToolName(p) {
	case "Skill", "WebFetch", "WebSearch", "TodoWrite", "BashOutput":
		return true
	case "Agent", "Task":
		return agentCompliant(p)
	case "Read", "NotebookRead", "LS":
		return noParent(p, "file_path|notebook_path|path")
	case "Grep":
		return noParent(p, "path", "glob")
	case "Glob":
		return noParent(p, "path", "pattern")
	case "Bash":
		v, ok := inputField(p, "command")
		// A JSON text decodes to at least a sixth of its length (\u0000 is
		// the longest escape): past this the command is over
		// shellread.MaxCommand and is denied without being decoded.
		if !ok || len(v) > maxRawCommand {
			return false
		}
		return shellread.ReadOnly(strings.TrimRight(jqtext.Render(v), "\n"))
	}
	return false
}

// BashRefusal returns, for a Bash call whose command the shell reader
// refused for a reason the caller can act on (a byte sequence where the
// parser and the real shells may read the command differently), that
// reason; otherwise "". The deny line then names it.
func BashRefusal(p *hookio.Payload) string {
	if ToolName(p) != "Bash" {
		return ""
	}
	v, ok := inputField(p, "command")
	if !ok || len(v) > maxRawCommand {
		return ""
	}
	_, why := shellread.Judge(strings.TrimRight(jqtext.Render(v), "\n"))
	return why
}

// maxRawCommand is the longest raw JSON command value decoded and judged.
const maxRawCommand = 6*shellread.MaxCommand + 2

// inputText renders the first truthy of the |-separated fields of in (jq
// -r), or "". It reports false for an object or array, which jq cannot join
// into a text.
func inputText(in map[string]json.RawMessage, fields string) (string, bool) {
	for _, f := range strings.Split(fields, "|") {
		if v, ok := in[f]; ok && truthy(v) {
			return strings.TrimRight(jqtext.Render(v), "\n"), v[0] != '{' && v[0] != '['
		}
	}
	return "", true
}

// noParent joins the texts of the given fields with spaces and reports
// whether the result holds no "..". An input that is not an object reads as
// empty (and passes).
func noParent(p *hookio.Payload, fields ...string) bool {
	in, ok := input(p)
	if !ok {
		return true
	}
	texts := make([]string, len(fields))
	for i, f := range fields {
		texts[i], _ = inputText(in, f)
	}
	return !strings.Contains(strings.Join(texts, " "), "..")
}

// gateAgents are the subagent types the two skills dispatch.
var gateAgents = map[string]bool{"procedure-scout": true, "work-reviewer": true}

// agentCompliant: the subagent type is procedure-scout or work-reviewer
// (plain or procedures:-qualified), or the subagent type, description or
// prompt names how-do-i or am-i-done (in any spelling: bare, plugin-scoped,
// as a slash command or Skill(...)). The word "procedures" alone is not
// enough. An input that cannot be read is refused.
func agentCompliant(p *hookio.Payload) bool {
	in, ok := input(p)
	if !ok {
		return false
	}
	var texts []string
	for _, f := range []string{"subagent_type", "description", "prompt"} {
		t, ok := inputText(in, f)
		if !ok {
			return false
		}
		texts = append(texts, t)
	}
	if gateAgents[strings.TrimPrefix(texts[0], "procedures:")] {
		return true
	}
	joined := strings.Join(texts, " ")
	return strings.Contains(joined, "how-do-i") || strings.Contains(joined, "am-i-done")
}
