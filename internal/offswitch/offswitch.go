package offswitch

import (
	"time"

	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/gatelog"
	"github.com/procedures-go/procedures/internal/wiring"
)

// The gate keys, each the key of the wiring table's switch for that hook
// (its userConfig option enable_<x> switches off the key upper(<x>)), so
// the keys the hooks evaluate are the keys plugin.json declares.
var (
	HowDoIGate       = keyOf("how-do-i-gate")       // HOW_DO_I_GATE
	AmIDoneGate      = keyOf("am-i-done-gate")      // AM_I_DONE_GATE
	FrontmatterCheck = keyOf("enforce-frontmatter") // FRONTMATTER_CHECK
)

// keyOf is the key of the switch the wiring table declares for command, or
// "" when there is none (a test asserts there always is one).
func keyOf(command string) string {
	for _, s := range wiring.Switches() {
		if s.Command == command {
			return s.Key()
		}
	}
	return ""
}

// ReleasedBy reports the variable that switches the gate key off, or "" when
// the gate is on. Only the exact values 0 and (any case) false switch off;
// the plugin option channel is consulted first, so it is named when both say
// off.
func ReleasedBy(key string, sw config.Switches) string {
	for _, name := range config.SwitchVars(key) {
		if v := sw[name]; v == "0" || isFalse(v) {
			return name
		}
	}
	return ""
}

// isFalse reports whether v is "false" in any ASCII letter case (bash
// lower-cases ASCII only: strings.EqualFold would also accept the Unicode
// long s, U+017F, for "s").
func isFalse(v string) bool {
	if len(v) != len("false") {
		return false
	}
	for i := range len(v) {
		c := v[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != "false"[i] {
			return false
		}
	}
	return true
}

// Record appends one escape record to the log at path in a single write
// ([gatelog.AppendLine]: never blocking, never creating the parent):
//
//	{"ts":"<UTC time>","gate":"<key>","released_by":"<variable>"}
//
// Both values are sanitised to [A-Za-z0-9_.:-] ([gatelog.Sanitize]).
func Record(path, key, releasedBy string, now time.Time) error {
	line := `{"ts":"` + now.UTC().Format(gatelog.TimeLayout) + `","gate":"` + gatelog.Sanitize(key) +
		`","released_by":"` + gatelog.Sanitize(releasedBy) + "\"}\n"
	return gatelog.AppendLine(path, []byte(line))
}

// EnabledOrLogRelease evaluates the switch of key. When it is off, it
// appends one escape record to the log at escapeLog (failures are silent)
// and returns false. Call it only at the point where the gate would
// otherwise fire, so the log counts releases.
func EnabledOrLogRelease(key string, sw config.Switches, escapeLog string, now time.Time) bool {
	by := ReleasedBy(key, sw)
	if by == "" {
		return true
	}
	_ = Record(escapeLog, key, by, now)
	return false
}
