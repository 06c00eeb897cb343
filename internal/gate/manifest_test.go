package gate_test

import (
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/bundle"
	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/offswitch"
	"github.com/procedures-go/procedures/internal/wiring"
)

// gateKeys are the switch keys the hooks evaluate: the two gates here, the
// frontmatter check in enforce-frontmatter.
var gateKeys = []string{offswitch.HowDoIGate, offswitch.AmIDoneGate, offswitch.FrontmatterCheck}

type option struct {
	Type        string `json:"type"`
	Default     *bool  `json:"default"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Sensitive   bool   `json:"sensitive"`
}

// The shipped plugin.json, as the bundle writes it from the wiring table.
func TestManifestSwitches(t *testing.T) {
	data := wiring.PluginJSON("procedures", "0.0.0", "d")
	var m struct {
		UserConfig map[string]option `json:"userConfig"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	var declared []string
	for name, o := range m.UserConfig {
		if !strings.HasPrefix(name, "enable_") {
			continue
		}
		// MF-02: boolean, default true, with title and description.
		if o.Type != "boolean" || o.Default == nil || !*o.Default || o.Title == "" || o.Description == "" {
			t.Errorf("MF-02: option %s: %+v", name, o)
		}
		// MF-03: never sensitive.
		if o.Sensitive {
			t.Errorf("MF-03: option %s is sensitive", name)
		}
		declared = append(declared, strings.ToUpper(strings.TrimPrefix(name, "enable_")))
	}
	if len(declared) == 0 {
		t.Fatal("MF-02: no enable_ option")
	}
	sort.Strings(declared)
	want := append([]string(nil), gateKeys...)
	sort.Strings(want)
	// MF-04, MF-05: the declared options and the evaluated keys are one set.
	if strings.Join(declared, " ") != strings.Join(want, " ") {
		t.Fatalf("MF-04/MF-05: declared %v, evaluated %v", declared, want)
	}
	// MF-04: each gate key of this package is honoured by its hook (the
	// plain channel releases the gate).
	for _, key := range gateKeys[:2] {
		env := cli.MapEnv(map[string]string{"PROCEDURES_ENABLE_" + key: "false", "GATE_ESCAPE_LOG": os.DevNull})
		if offswitch.EnabledOrLogRelease(key, env.Get, time.Now()) {
			t.Errorf("MF-04: %s is not switched off by its variable", key)
		}
	}
}

// MF-01: the wiring: events, matchers and the commands they run. GF-07
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
				f := strings.Fields(c.Command)
				if len(f) != 3 || f[0] != "sh" || f[1] != `"${CLAUDE_PLUGIN_ROOT}/bin/procedures"` {
					t.Errorf("MF-01: %q does not run the launcher", c.Command)
					continue
				}
				got = append(got, event+"|"+g.Matcher+"|"+f[2])
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
		t.Fatalf("MF-01: wiring\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
