// Package wiring is the one table from which the plugin's wiring is made:
// the hooks.json entries (event, matcher, command), the userConfig switches
// of .claude-plugin/plugin.json, and the off-switch key each switch turns
// off. The bundle writes its files from it, and tests check the hooks and
// the switches they evaluate against it.
package wiring

import (
	"bytes"
	"encoding/json"
	"strings"
)

// A Hook is one hooks.json entry: Command runs on Event for tools matching
// Matcher ("" for every tool, or an event without tools).
type Hook struct {
	Event   string
	Matcher string
	Command string
}

// Hooks lists the plugin's hooks in hooks.json order: the bash original's
// events and matchers, with MultiEdit added to the frontmatter check. Hooks
// that share an event and matcher form one group, in this order.
var hooks = []Hook{
	{"UserPromptSubmit", "", "turn-state-reset"},
	{"PreToolUse", "", "how-do-i-gate"},
	{"PostToolUse", "Skill", "turn-state-record"},
	{"PostToolUse", "Skill", "digest-record"},
	{"PostToolUse", "Write|Edit|MultiEdit", "enforce-frontmatter"},
	{"Stop", "", "am-i-done-gate"},
}

// Hooks returns a copy of the table of hooks.
func Hooks() []Hook { return append([]Hook(nil), hooks...) }

// IsHook reports whether command is wired as a hook.
func IsHook(command string) bool {
	for _, h := range hooks {
		if h.Command == command {
			return true
		}
	}
	return false
}

// A Switch is one userConfig option that turns a check off. The option
// enable_<x> switches off the gate key upper(<x>), read from the variables
// CLAUDE_PLUGIN_OPTION_ENABLE_<X> and PROCEDURES_ENABLE_<X>.
type Switch struct {
	Option      string // the userConfig key, enable_<x>
	Title       string
	Description string
	Command     string // the hook that evaluates it
}

// Key is the gate key the switch turns off: the option's name after
// "enable_", upper-cased.
func (s Switch) Key() string { return strings.ToUpper(strings.TrimPrefix(s.Option, "enable_")) }

var switches = []Switch{
	{
		Option:      "enable_how_do_i_gate",
		Title:       "Enable the how-do-i gate",
		Description: "Require Skill(how-do-i) before a main agent acts. Set false to turn this gate off; also settable per-invocation as PROCEDURES_ENABLE_HOW_DO_I_GATE=false.",
		Command:     "how-do-i-gate",
	},
	{
		Option:      "enable_am_i_done_gate",
		Title:       "Enable the am-i-done gate",
		Description: "Require one Skill(am-i-done) review before a turn that used tools ends. Set false to turn this gate off; also settable per-invocation as PROCEDURES_ENABLE_AM_I_DONE_GATE=false.",
		Command:     "am-i-done-gate",
	},
	{
		Option:      "enable_frontmatter_check",
		Title:       "Enable the frontmatter check",
		Description: "Require the six-key frontmatter schema on records written into a knowledge store. Set false to turn this check off; also settable per-invocation as PROCEDURES_ENABLE_FRONTMATTER_CHECK=false.",
		Command:     "enforce-frontmatter",
	},
}

// Switches returns a copy of the table of switches.
func Switches() []Switch { return append([]Switch(nil), switches...) }

// HooksJSON renders hooks.json: every hook command is commandLine(name).
// Events keep the table's order, and each event lists its matcher groups
// in the order they first appear.
func HooksJSON(commandLine func(command string) string) []byte {
	type handler struct {
		Type    string `json:"type"`
		Command string `json:"command"`
	}
	type group struct {
		Matcher string    `json:"matcher,omitempty"`
		Hooks   []handler `json:"hooks"`
	}
	var events []string
	groups := map[string][]group{}
	for _, h := range hooks {
		gs, seen := groups[h.Event]
		if !seen {
			events = append(events, h.Event)
		}
		if i := len(gs) - 1; i >= 0 && gs[i].Matcher == h.Matcher {
			gs[i].Hooks = append(gs[i].Hooks, handler{"command", commandLine(h.Command)})
		} else {
			gs = append(gs, group{h.Matcher, []handler{{"command", commandLine(h.Command)}}})
		}
		groups[h.Event] = gs
	}
	var b bytes.Buffer
	b.WriteString("{\n  \"hooks\": {\n")
	for i, ev := range events {
		body, _ := json.MarshalIndent(groups[ev], "    ", "  ")
		b.WriteString("    " + quote(ev) + ": " + string(body))
		if i < len(events)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("  }\n}\n")
	return b.Bytes()
}

// PluginJSON renders .claude-plugin/plugin.json for the plugin called name
// at version, declaring every switch as a boolean userConfig option that
// defaults to true.
func PluginJSON(name, version, description string) []byte {
	type option struct {
		Type        string `json:"type"`
		Title       string `json:"title"`
		Description string `json:"description"`
		Default     bool   `json:"default"`
	}
	var opts bytes.Buffer
	opts.WriteString("{")
	for i, s := range switches {
		o, _ := json.MarshalIndent(option{"boolean", s.Title, s.Description, true}, "    ", "  ")
		if i > 0 {
			opts.WriteByte(',')
		}
		opts.WriteString("\n    " + quote(s.Option) + ": " + string(o))
	}
	opts.WriteString("\n  }")
	return []byte("{\n  \"name\": " + quote(name) + ",\n  \"version\": " + quote(version) +
		",\n  \"description\": " + quote(description) + ",\n  \"userConfig\": " + opts.String() + "\n}\n")
}

func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}
