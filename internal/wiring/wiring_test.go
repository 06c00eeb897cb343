package wiring

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// The wiring of the bash original, with MultiEdit added to the frontmatter
// check: events and matchers, one group per (event, matcher).
func TestHooksJSONWiring(t *testing.T) {
	var doc struct {
		Hooks map[string][]struct {
			Matcher *string `json:"matcher"`
			Hooks   []struct{ Type, Command string }
		}
	}
	if err := json.Unmarshal(HooksJSON(func(c string) string { return "run " + c }), &doc); err != nil {
		t.Fatal(err)
	}
	type entry struct{ event, matcher, command string }
	var got []entry
	for ev, groups := range doc.Hooks {
		for _, g := range groups {
			m := "(none)"
			if g.Matcher != nil {
				m = *g.Matcher
			}
			for _, h := range g.Hooks {
				if h.Type != "command" {
					t.Errorf("%s: type %q", ev, h.Type)
				}
				got = append(got, entry{ev, m, h.Command})
			}
		}
	}
	want := []entry{
		{"PostToolUse", "Skill", "run turn-state-record"},
		{"PostToolUse", "Skill", "run digest-record"},
		{"PostToolUse", "Write|Edit|MultiEdit", "run enforce-frontmatter"},
		{"PreToolUse", "(none)", "run how-do-i-gate"},
		{"Stop", "(none)", "run am-i-done-gate"},
		{"UserPromptSubmit", "(none)", "run turn-state-reset"},
	}
	slices.SortStableFunc(got, func(a, b entry) int { return strings.Compare(a.event, b.event) })
	if !slices.Equal(got, want) {
		t.Errorf("wiring:\n got %v\nwant %v", got, want)
	}
}

// Every enable_* option is a boolean defaulting to true with a title and a
// description, none is sensitive, and there is at least one.
func TestPluginJSONSwitches(t *testing.T) {
	var doc struct {
		UserConfig map[string]map[string]any `json:"userConfig"`
	}
	if err := json.Unmarshal(PluginJSON("p", "v", "d"), &doc); err != nil {
		t.Fatal(err)
	}
	n := 0
	for k, o := range doc.UserConfig {
		if !strings.HasPrefix(k, "enable_") {
			continue
		}
		n++
		if o["type"] != "boolean" || o["default"] != true || o["title"] == nil || o["description"] == nil {
			t.Errorf("%s: %v", k, o)
		}
		if s, ok := o["sensitive"]; ok && s != false {
			t.Errorf("%s is sensitive", k)
		}
	}
	if n != 3 || len(doc.UserConfig) != 3 {
		t.Errorf("%d enable_ options of %d, want the 3 switches", n, len(doc.UserConfig))
	}
}

func TestSwitchKeys(t *testing.T) {
	var keys []string
	for _, s := range Switches() {
		keys = append(keys, s.Key())
		if !IsHook(s.Command) {
			t.Errorf("%s is evaluated by %s, which is not a hook", s.Option, s.Command)
		}
	}
	if want := []string{"HOW_DO_I_GATE", "AM_I_DONE_GATE", "FRONTMATTER_CHECK"}; !slices.Equal(keys, want) {
		t.Errorf("keys %v, want %v", keys, want)
	}
}
