package gate_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/bundle"
	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/cli/hooktest"
	"github.com/procedures-go/procedures/internal/commands"
	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/turnstate"
	"github.com/procedures-go/procedures/internal/wiring"
)

type option struct {
	Type        string `json:"type"`
	Default     *bool  `json:"default"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Sensitive   *bool  `json:"sensitive"`
}

// armed puts, in the sandbox at root with environment vars, a situation in
// which the hook that evaluates a switch acts (denies, blocks) unless
// switched off, and returns the hook's stdin for it.
var armed = map[string]func(t *testing.T, root string, vars map[string]string) string{
	"how-do-i-gate": func(t *testing.T, root string, vars map[string]string) string {
		reset(t, vars, "S1")
		return `{"session_id":"S1","tool_name":"Edit","tool_input":{"file_path":"/tmp/x"}}`
	},
	"am-i-done-gate": func(t *testing.T, root string, vars map[string]string) string {
		reset(t, vars, "S1")
		tr := filepath.Join(root, "used.jsonl")
		write(t, tr, `{"type":"user","message":{"role":"user","content":"go"}}`+"\n"+
			`{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash","input":{}}]}}`+"\n")
		return `{"hook_event_name":"Stop","session_id":"S1","transcript_path":"` + tr + `"}`
	},
	"enforce-frontmatter": func(t *testing.T, root string, vars map[string]string) string {
		vars["KNOWLEDGE_ROOT"] = filepath.Join(root, "kb")
		bad := filepath.Join(root, "kb/references/decisions/bad.md")
		write(t, bad, "# no frontmatter\n")
		return `{"tool_name":"Write","tool_input":{"file_path":"` + bad + `"}}`
	},
}

func reset(t *testing.T, vars map[string]string, sid string) {
	t.Helper()
	if err := turnstate.New(config.TurnStateFrom(cli.MapEnv(vars).Get)).Reset(sid, time.Now()); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o666); err != nil {
		t.Fatal(err)
	}
}

// runHook runs the named command's Main as the hook binary would and returns
// its exit status and stdout.
func runHook(t *testing.T, name string, vars map[string]string, stdin string) (int, string) {
	t.Helper()
	for _, c := range commands.All {
		if c.Name == name {
			var out, errb strings.Builder
			code := c.Main(nil, strings.NewReader(stdin), &out, &errb, cli.MapEnv(vars))
			return code, out.String()
		}
	}
	t.Fatalf("no command %q in the command table", name)
	return 0, ""
}

// TestManifestSwitches: every switch of the wiring table is declared in the
// generated plugin.json exactly as the table says (boolean, default
// true, with title and description; never sensitive), and, through
// the hook it names, each of its two variables set to false releases a call
// that hook would otherwise stop, recording one escape row that names the
// variable.
func TestManifestSwitches(t *testing.T) {
	var m struct {
		UserConfig map[string]option `json:"userConfig"`
	}
	if err := json.Unmarshal(wiring.PluginJSON("procedures", "0.0.0", "d"), &m); err != nil {
		t.Fatal(err)
	}
	switches := wiring.Switches()
	if len(switches) == 0 {
		t.Fatal("the wiring table has no switch")
	}
	declared := map[string]bool{}
	for name := range m.UserConfig {
		declared[name] = true
	}
	for _, s := range switches {
		o, ok := m.UserConfig[s.Option]
		if !ok {
			t.Errorf("switch %s is not declared in plugin.json", s.Option)
			continue
		}
		delete(declared, s.Option)
		if o.Type != "boolean" || o.Default == nil || !*o.Default || o.Title != s.Title || o.Description != s.Description {
			t.Errorf("option %s: type %q, default %v, title %q, description %q; want boolean, true, %q, %q",
				s.Option, o.Type, o.Default != nil && *o.Default, o.Title, o.Description, s.Title, s.Description)
		}
		if o.Sensitive != nil && *o.Sensitive {
			t.Errorf("option %s is sensitive", s.Option)
		}
	}
	for name := range declared {
		t.Errorf("plugin.json declares %s, which no switch of the wiring table backs", name)
	}

	for _, s := range switches {
		for _, variable := range []string{"CLAUDE_PLUGIN_OPTION_ENABLE_" + s.Key(), "PROCEDURES_ENABLE_" + s.Key()} {
			t.Run(s.Command+"/"+variable, func(t *testing.T) {
				setup, ok := armed[s.Command]
				if !ok {
					t.Fatalf("switch %s names %s, for which this test has no armed situation", s.Option, s.Command)
				}
				root, vars := hooktest.Sandbox(t)
				stdin := setup(t, root, vars)
				code, out := runHook(t, s.Command, vars, stdin)
				if code == 0 && out == "" {
					t.Fatalf("armed, %s let the call through: the situation does not exercise the switch", s.Command)
				}
				if _, err := os.Stat(vars["GATE_ESCAPE_LOG"]); !os.IsNotExist(err) {
					t.Fatalf("armed, %s wrote an escape record", s.Command)
				}
				root, vars = hooktest.Sandbox(t)
				stdin = setup(t, root, vars)
				vars[variable] = "false"
				code, out = runHook(t, s.Command, vars, stdin)
				if code != 0 || out != "" {
					t.Errorf("%s=false: %s exited %d with %q, want a silent release", variable, s.Command, code, out)
				}
				log, _ := os.ReadFile(vars["GATE_ESCAPE_LOG"])
				want := `"gate":"` + s.Key() + `","released_by":"` + variable + `"}`
				if strings.Count(string(log), "\n") != 1 || !strings.Contains(string(log), want) {
					t.Errorf("%s=false: escape log %q, want one row ending %s", variable, log, want)
				}
			})
		}
	}
}

// The wiring: events, matchers and the commands they run.
// (translated): every command the wiring names is a binary in the plugin's
// bin/ (one per hook; no library to carry).
func TestManifestWiring(t *testing.T) {
	data := wiring.HooksJSON(bundle.HookCommand)
	var h struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(data, &h); err != nil {
		t.Fatal(err)
	}
	var got []string
	for event, groups := range h.Hooks {
		for _, g := range groups {
			for _, c := range g.Hooks {
				// set -- "${CLAUDE_PLUGIN_ROOT}/bin/procedures" <hook>; . "$1"
				f := strings.Fields(c.Command)
				if len(f) != 6 || f[0] != "set" || f[1] != "--" || f[2] != `"${CLAUDE_PLUGIN_ROOT}/bin/procedures"` ||
					!strings.HasSuffix(f[3], ";") || f[4] != "." || f[5] != `"$1"` {
					t.Errorf("%q does not source the launcher", c.Command)
					continue
				}
				got = append(got, event+"|"+g.Matcher+"|"+strings.TrimSuffix(f[3], ";"))
			}
		}
	}
	sort.Strings(got)
	want := []string{
		"PostToolUse|Skill|digest-record", "PostToolUse|Skill|turn-state-record",
		"PostToolUse|Write|Edit|MultiEdit|enforce-frontmatter", "PreToolUse||how-do-i-gate",
		"Stop||am-i-done-gate", "UserPromptSubmit||turn-state-reset",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("wiring\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
