package commands

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/wiring"
)

// The off-switches and the hooks are one set, observed from behaviour: every
// hook of the wiring table runs on an input where it would fire, with every
// switch of the table turned off through one channel; the escape log each
// hook leaves names exactly the keys of the switches declared for it,
// released by that channel's variable, and no hook fires. So every enable_*
// option is honoured by its hook, through both channels, and a hook that
// evaluated a key the table does not declare would fire (its switch being on)
// and fail the test.
func TestSwitchesAreTheKeysTheHooksEvaluate(t *testing.T) {
	for _, channel := range []string{"CLAUDE_PLUGIN_OPTION_ENABLE_", "PROCEDURES_ENABLE_"} {
		var seen []string
		for _, h := range wiring.Hooks() {
			fx := newFixture(t)
			env := fx.env()
			for _, s := range wiring.Switches() {
				env[channel+s.Key()] = "false"
			}
			code, stdout, stderr := fx.run(t, h, env)
			if code != 0 || stdout != "" || stderr != "" {
				t.Errorf("%s, every switch off via %s: exit %d, stdout %q, stderr %q; want a silent release",
					h.Command, channel, code, stdout, stderr)
			}
			var want []string
			for _, s := range wiring.Switches() {
				if s.Command == h.Command {
					want = append(want, s.Key()+" "+channel+s.Key())
				}
			}
			got := fx.escapes(t)
			if !slices.Equal(got, want) {
				t.Errorf("%s via %s: escape log %q, want %q", h.Command, channel, got, want)
			}
			seen = append(seen, got...)
		}
		if len(seen) != len(wiring.Switches()) {
			t.Errorf("via %s: %d releases for %d switches: %q", channel, len(seen), len(wiring.Switches()), seen)
		}
	}
	// And the input does make each switched hook fire when its switches are
	// on, so the releases above are real ones.
	for _, s := range wiring.Switches() {
		var h wiring.Hook
		for _, w := range wiring.Hooks() {
			if w.Command == s.Command {
				h = w
			}
		}
		fx := newFixture(t)
		code, stdout, stderr := fx.run(t, h, fx.env())
		if code == 0 && stdout == "" && stderr == "" {
			t.Errorf("%s with every switch on does not fire on the fixture", s.Command)
		}
		if got := fx.escapes(t); len(got) != 0 {
			t.Errorf("%s with every switch on logged %q", s.Command, got)
		}
	}
}

const sid = "00000000-0000-4000-8000-00000000000a"

type fixture struct{ dir string }

func newFixture(t *testing.T) *fixture {
	dir := t.TempDir()
	files := map[string]string{
		"plugin/skills/how-do-i/SKILL.md":  "---\nname: how-do-i\n---\n",
		"plugin/skills/am-i-done/SKILL.md": "---\nname: am-i-done\n---\n",
		"plugin/bin/.keep":                 "",
		"kb/references/decisions/bad.md":   "---\nid: bad\n---\nmissing keys\n",
		"home/.claude/projects/p/" + sid + ".jsonl": `{"type":"user","message":{"role":"user","content":"edit"}}` + "\n" +
			`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Edit","input":{"file_path":"/tmp/x"}}]}}` + "\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return &fixture{dir}
}

func (fx *fixture) env() map[string]string {
	return map[string]string{
		"HOME":               fx.dir + "/home",
		"TURN_STATE_DIR":     fx.dir + "/tsd",
		"SESSION_DIGEST_DIR": fx.dir + "/digests",
		"GATE_FAILOPEN_LOG":  fx.dir + "/failopen.jsonl",
		"GATE_ESCAPE_LOG":    fx.dir + "/escape.jsonl",
		"KNOWLEDGE_ROOT":     fx.dir + "/kb",
		"PROCEDURES_BIN_DIR": fx.dir + "/plugin/bin",
	}
}

// payload is a hook input where the hook of that event and matcher acts.
func (fx *fixture) payload(h wiring.Hook) string {
	switch {
	case h.Event == "UserPromptSubmit":
		return `{"session_id":"` + sid + `","hook_event_name":"UserPromptSubmit","prompt":"edit"}`
	case h.Event == "PreToolUse":
		return `{"session_id":"` + sid + `","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"/tmp/x"}}`
	case h.Event == "Stop":
		return `{"session_id":"` + sid + `","hook_event_name":"Stop","stop_hook_active":false}`
	case h.Matcher == "Skill":
		return `{"session_id":"` + sid + `","hook_event_name":"PostToolUse","tool_name":"Skill","tool_input":{"skill":"procedures:how-do-i"},` +
			`"tool_response":{"status":"forked","success":true,"commandName":"procedures:how-do-i","result":"GOAL: g"}}`
	}
	return `{"session_id":"` + sid + `","hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"` +
		fx.dir + `/kb/references/decisions/bad.md"}}`
}

// run starts the session's turn, then runs the hook on its payload.
func (fx *fixture) run(t *testing.T, h wiring.Hook, env map[string]string) (int, string, string) {
	t.Helper()
	reset := hookOf(t, "turn-state-reset")
	if code := reset.Main(nil, strings.NewReader(fx.payload(wiring.Hook{Event: "UserPromptSubmit"})), new(bytes.Buffer), new(bytes.Buffer), cli.MapEnv(env)); code != 0 {
		t.Fatalf("turn-state-reset: exit %d", code)
	}
	var stdout, stderr bytes.Buffer
	c, ok := Lookup(h.Command)
	if !ok {
		t.Fatalf("the wiring names %s, which is not a command", h.Command)
	}
	code := c.Main(nil, strings.NewReader(fx.payload(h)), &stdout, &stderr, cli.MapEnv(env))
	return code, stdout.String(), stderr.String()
}

// escapes reads the escape log as "<gate> <released_by>" lines.
func (fx *fixture) escapes(t *testing.T) []string {
	f, err := os.Open(fx.dir + "/escape.jsonl")
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var row struct {
			Gate       string `json:"gate"`
			ReleasedBy string `json:"released_by"`
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatalf("escape log line %q: %v", sc.Text(), err)
		}
		out = append(out, row.Gate+" "+row.ReleasedBy)
	}
	return out
}

func hookOf(t *testing.T, command string) Command {
	t.Helper()
	c, ok := Lookup(command)
	if !ok || !wiring.IsHook(command) {
		t.Fatalf("%s is not a hook command", command)
	}
	return c
}
