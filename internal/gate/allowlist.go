package gate

import (
	"strings"

	"github.com/procedures-go/procedures/hookio"
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
	switch p.ToolName() {
	case "Skill", "WebFetch", "WebSearch", "TodoWrite", "BashOutput":
		return true
	case "Agent", "Task":
		return agentCompliant(p)
	case "Read", "NotebookRead", "LS":
		return noParent(p, []string{"file_path", "notebook_path", "path"})
	case "Grep":
		return noParent(p, []string{"path"}, []string{"glob"})
	case "Glob":
		return noParent(p, []string{"path"}, []string{"pattern"})
	case "Bash":
		v := bashCommand(p)
		// A JSON text decodes to at least a sixth of its length (\u0000 is
		// the longest escape): past this the command is over
		// shellread.MaxCommand and is denied without being decoded.
		if v == nil || len(v) > maxRawCommand {
			return false
		}
		return shellread.ReadOnly(v.Text())
	}
	return false
}

// BashRefusal returns, for a Bash call whose command the shell reader
// refused for a reason the caller can act on (a byte sequence where the
// parser and the real shells may read the command differently), that
// reason; otherwise "". The deny line then names it.
func BashRefusal(p *hookio.Payload) string {
	if p.ToolName() != "Bash" {
		return ""
	}
	v := bashCommand(p)
	if v == nil || len(v) > maxRawCommand {
		return ""
	}
	_, why := shellread.Judge(v.Text())
	return why
}

// maxRawCommand is the longest raw JSON command value decoded and judged.
const maxRawCommand = 6*shellread.MaxCommand + 2

// bashCommand is a Bash call's command: tool_input.command, else
// input.command.
func bashCommand(p *hookio.Payload) hookio.Value {
	return p.Get("tool_input.command", "input.command")
}

// noParent joins with spaces the texts of the given fields of the tool
// input, each the first truthy of its alternatives, and reports whether the
// result holds no "..". An input that is not an object reads as empty (and
// passes).
func noParent(p *hookio.Payload, fields ...[]string) bool {
	in := p.ToolInput()
	texts := make([]string, len(fields))
	for i, f := range fields {
		texts[i] = in.Get(f...).Text()
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
	in := p.ToolInput()
	var texts []string
	for _, f := range []string{"subagent_type", "description", "prompt"} {
		v := in.Get(f)
		if v.Composite() { // jq cannot join an object or array into a text
			return false
		}
		texts = append(texts, v.Text())
	}
	if gateAgents[strings.TrimPrefix(texts[0], "procedures:")] {
		return true
	}
	joined := strings.Join(texts, " ")
	return strings.Contains(joined, "how-do-i") || strings.Contains(joined, "am-i-done")
}
