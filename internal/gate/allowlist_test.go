package gate

import (
	"strings"
	"testing"

	"github.com/procedures-go/procedures/hookio"
)

func decode(js string) *hookio.Payload {
	p, err := hookio.Read(strings.NewReader(js))
	if err != nil {
		return nil
	}
	return p
}

type allowCase struct {
	payload string
	want    bool
}

func allow(t *testing.T, id string, cases []allowCase) {
	t.Helper()
	for _, c := range cases {
		if got := Compliance(decode(c.payload)); got != c.want {
			t.Errorf("%s: Compliance(%s) = %v, want %v", id, c.payload, got, c.want)
		}
	}
}

func TestAllowlist(t *testing.T) {
	// Skill is always the compliance path, whatever the skill.
	allow(t, "any skill", []allowCase{{`{"tool_name":"Skill","tool_input":{"skill":"anything"}}`, true},
		{`{"tool_name":"Skill"}`, true}})
	// A compliance Agent dispatch (naming the skill) is allowed.
	allow(t, "compliance dispatch", []allowCase{
		{`{"tool_name":"Agent","tool_input":{"description":"procedures how-do-i lookup"}}`, true},
		{`{"tool_name":"Agent","tool_input":{"prompt":"run procedures:how-do-i for this goal"}}`, true},
		{`{"tool_name":"Agent","tool_input":{"subagent_type":"x","prompt":"am-i-done review"}}`, true},
	})
	// A work-delegation Agent dispatch is refused.
	allow(t, "work delegation", []allowCase{
		{`{"tool_name":"Agent","tool_input":{"subagent_type":"general-purpose","description":"update GOALS","prompt":"append a line to GOALS.md"}}`, false},
	})
	// A Read of any path without ".." is allowed.
	allow(t, "read without traversal", []allowCase{
		{`{"tool_name":"Read","tool_input":{"file_path":"/home/u/.claude/references/procedures/x/PROCEDURE.md"}}`, true},
		{`{"tool_name":"Read","tool_input":{"file_path":"/tmp/claude/tasks/abc.output"}}`, true},
	})
	// Traversal in a Read path is refused.
	allow(t, "read traversal", []allowCase{{`{"tool_name":"Read","tool_input":{"file_path":"/x/references/procedures/../../secrets"}}`, false}})
	// Grep and Glob are looks.
	allow(t, "grep and glob", []allowCase{
		{`{"tool_name":"Grep","tool_input":{"pattern":"foo","path":"/x"}}`, true},
		{`{"tool_name":"Glob","tool_input":{"pattern":"**/*.sh"}}`, true},
	})
	// ".." in a Glob pattern, a Grep glob or a Grep path is refused.
	allow(t, "traversal in glob or grep", []allowCase{
		{`{"tool_name":"Glob","tool_input":{"pattern":"../**/*.md"}}`, false},
		{`{"tool_name":"Grep","tool_input":{"pattern":"x","glob":"../*.md"}}`, false},
		{`{"tool_name":"Grep","tool_input":{"pattern":"x","path":"../up"}}`, false},
	})
	// ".." inside a Grep regex is not traversal.
	allow(t, "dots in a grep regex", []allowCase{{`{"tool_name":"Grep","tool_input":{"pattern":"a..b","path":"/x"}}`, true}})
	// WebFetch and WebSearch are read-only discovery.
	allow(t, "webfetch", []allowCase{{`{"tool_name":"WebFetch","tool_input":{"url":"https://example.com"}}`, true}})
	allow(t, "websearch", []allowCase{{`{"tool_name":"WebSearch","tool_input":{"query":"x"}}`, true}})
	// Their payload is not inspected.
	allow(t, "web payload not inspected", []allowCase{{`{"tool_name":"WebFetch","tool_input":""}`, true},
		{`{"tool_name":"WebSearch","tool_input":{}}`, true}})
	// Unknown tools fall through to deny.
	allow(t, "unknown tools", []allowCase{{`{"tool_name":"Edit","tool_input":{"file_path":"/x"}}`, false},
		{`{"tool_name":"Write"}`, false}, {`{"tool_name":"mcp__x__y"}`, false}})
	// Bash goes through the classifier.
	allow(t, "bash through the classifier", []allowCase{
		{`{"tool_name":"Bash","tool_input":{"command":"grep -r foo references/procedures/"}}`, true},
		{`{"tool_name":"Bash","tool_input":{"command":"rm -rf x"}}`, false},
		{`{"tool":"Bash","input":{"command":"ls"}}`, true},
	})
	// Malformed input: Read/Grep/Glob pass, Agent/Bash are refused;
	// "/a/b..c.md" is refused (kept from the bash original); these tools stay denied; the
	// lowercase skill is not Skill.
	allow(t, "malformed input", []allowCase{
		{`{"tool_name":"Read","tool_input":"str"}`, true}, {`{"tool_name":"Grep","tool_input":5}`, true},
		{`{"tool_name":"Glob","tool_input":[1]}`, true},
		{`{"tool_name":"Agent","tool_input":"how-do-i"}`, false}, {`{"tool_name":"Bash","tool_input":"ls"}`, false},
		{`{"tool_name":"Bash","tool_input":{"command":""}}`, false},
		{`{"tool_name":"Read","tool_input":{"file_path":"/a/b..c.md"}}`, false},
		{`{"tool_name":"MultiEdit"}`, false}, {`{"tool_name":"NotebookEdit"}`, false},
		{`{"tool_name":"ExitPlanMode"}`, false}, {`{"tool_name":"skill"}`, false}, {`{"tool_name":""}`, false},
		{`not json`, false},
	})
}

// The decided differences of the allowlist.
func TestAllowlistDifferences(t *testing.T) {
	// The bare word "procedures" no longer opens the gate.
	allow(t, "bare procedures word", []allowCase{
		{`{"tool_name":"Agent","tool_input":{"prompt":"fix the procedures doc"}}`, false},
		{`{"tool_name":"Agent","tool_input":{"description":"procedures cleanup"}}`, false},
		{`{"tool_name":"Agent","tool_input":{"description":"How-Do-I lookup"}}`, false}, // case-sensitive
		{`{"tool_name":"Agent","tool_input":{"prompt":"/procedures:am-i-done please"}}`, true},
		{`{"tool_name":"Agent","tool_input":{"prompt":"Skill(how-do-i)"}}`, true},
		{`{"tool_name":"Agent","tool_input":{"prompt":{"x":"how-do-i"}}}`, false},
	})
	// Scout and reviewer dispatches pass, plain or plugin-scoped,
	// under Agent and under Task (its older name).
	allow(t, "scout and reviewer dispatch", []allowCase{
		{`{"tool_name":"Agent","tool_input":{"subagent_type":"procedure-scout"}}`, true},
		{`{"tool_name":"Agent","tool_input":{"subagent_type":"procedures:procedure-scout"}}`, true},
		{`{"tool_name":"Agent","tool_input":{"subagent_type":"work-reviewer","prompt":"review"}}`, true},
		{`{"tool_name":"Task","tool_input":{"subagent_type":"procedures:work-reviewer"}}`, true},
		{`{"tool_name":"Task","tool_input":{"prompt":"run how-do-i"}}`, true},
		{`{"tool_name":"Task","tool_input":{"subagent_type":"general-purpose","prompt":"edit x"}}`, false},
		{`{"tool_name":"Agent","tool_input":{"subagent_type":"evil:procedure-scout"}}`, false},
		{`{"tool_name":"Agent","tool_input":{"subagent_type":"Procedure-Scout"}}`, false},
	})
	// LS follows the Read rule; TodoWrite and BashOutput are allowed;
	// the rest of the non-mutating tools stay denied.
	allow(t, "LS, TodoWrite, BashOutput", []allowCase{
		{`{"tool_name":"LS","tool_input":{"path":"/x"}}`, true},
		{`{"tool_name":"LS","tool_input":{"path":"/x/../y"}}`, false},
		{`{"tool_name":"TodoWrite","tool_input":{"todos":[]}}`, true},
		{`{"tool_name":"BashOutput","tool_input":{"bash_id":"1"}}`, true},
		{`{"tool_name":"ExitPlanMode"}`, false},
	})
}

// The audience: a non-empty agent_id (a string, a number,
// true, an object) is a subagent and never gated; anything else is the main
// agent.
func TestAudience(t *testing.T) {
	for _, c := range []struct {
		payload  string
		subagent bool
	}{
		{`{"agent_id":"abc123"}`, true},             // a delegated subagent
		{`{}`, false}, {`{"agent_id":"abc"}`, true}, // no agent_id binds
		{`{"agent_id":""}`, false}, {`{"agent_id":null}`, false}, {`{"agent_id":false}`, false}, // empty, null, false bind
		{`not json`, false}, {`{"agent_id":7}`, true}, {`{"agent_id":true}`, true}, {`{"agent_id":{}}`, true},
	} {
		if got := Subagent(decode(c.payload)); got != c.subagent {
			t.Errorf("Subagent(%s) = %v, want %v", c.payload, got, c.subagent)
		}
	}
}
