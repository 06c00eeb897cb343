package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/offswitch"
	"github.com/procedures-go/procedures/internal/wiring"
)

// checkSwitches adds the Switches findings: each switch as the hooks would
// evaluate it in this environment (nothing is recorded), and the escape
// log's releases in the window.
func checkSwitches(r *Report, o *Options, since time.Time) {
	add := func(f Finding) { f.Section = SectionSwitches; r.add(f) }
	switchValue := func(name string) string { return o.Settings.Switches[name] }
	for _, s := range wiring.Switches() {
		by := offswitch.ReleasedBy(s.Key(), o.Settings.Switches)
		if by == "" {
			if name, v := unrecognised(s.Key(), switchValue); name != "" {
				add(Finding{Status: Warn, Subject: s.Command,
					Reason: fmt.Sprintf("%s=%q is not recognised: the gate stays on (only 0 or false, any case, switch it off); the fix leaves it on, export %s=false switches it off", name, v, name) + inShell,
					Fix:    "unset " + name,
					Data:   map[string]any{"key": s.Key(), "variable": name, "value": v}})
				continue
			}
			add(Finding{Status: OK, Subject: s.Command, Reason: "on"})
			continue
		}
		how := by + "=" + switchValue(by)
		fix := "unset " + by
		if strings.HasPrefix(by, "CLAUDE_PLUGIN_OPTION_") {
			// Claude Code sets it from the plugin's options: no shell
			// command reaches them.
			how += " (the plugin option " + s.Option + "): set the option to true in /plugin to turn the gate back on"
			fix = ""
		} else {
			how += ": the fix turns the gate back on" + inShell
		}
		add(Finding{Status: Warn, Subject: s.Command, Reason: "switched off by " + how, Fix: fix,
			Data: map[string]any{"key": s.Key(), "released_by": by}})
	}

	path := o.Settings.EscapeLog
	f, err := openLog(path)
	if errors.Is(err, fs.ErrNotExist) {
		add(Finding{Status: OK, Subject: "escape log", Reason: path + ": missing (no switched-off release recorded)",
			Data: map[string]any{"path": path, "releases": 0}})
		return
	}
	if err != nil {
		add(Finding{Status: Warn, Subject: "escape log", Reason: fmt.Sprintf("%s cannot be read: %v", path, cause(err)),
			Fix: unreadableFix(path, o.Now)})
		return
	}
	defer f.Close()
	s, err := SummarizeEscapes(f, since)
	r.GateActivity = r.GateActivity || s.InWindow > 0
	if err != nil {
		add(Finding{Status: Warn, Subject: "escape log", Reason: fmt.Sprintf("%s: read error after %d records: %v", path, s.InWindow+s.Older, err)})
		return
	}
	reason := fmt.Sprintf("%s: %s in the window", path, plural(s.InWindow, "switched-off release"))
	var parts []string
	for _, k := range s.keys() {
		parts = append(parts, fmt.Sprintf("%s: %d", k, s.By[k]))
	}
	if s.Overflow > 0 {
		parts = append(parts, fmt.Sprintf("other pairs: %d", s.Overflow))
	}
	if len(parts) > 0 {
		reason += " (" + strings.Join(parts, ", ") + ")"
	}
	reason += fmt.Sprintf(", %d older", s.Older)
	st, fix := OK, ""
	if s.Unparseable > 0 || s.Overlong > 0 {
		st = Warn
		reason += fmt.Sprintf("; %d unparseable and %d over-long lines not counted", s.Unparseable, s.Overlong)
		reason += ": something other than its writer writes to it; the fix sets the log aside (the hooks start a new one)"
		fix = setAside(path, o.Now)
	}
	add(Finding{Status: st, Subject: "escape log", Reason: reason, Fix: fix,
		Data: map[string]any{"path": path, "releases": s.InWindow, "by": s.By, "older": s.Older,
			"unparseable": s.Unparseable, "overlong": s.Overlong}})
}

// unrecognised returns the first of key's switch variables that value
// gives a value other than 0, 1, false or true (any case), and that value;
// "" when there is none. The gates treat such a value as on
// (offswitch.ReleasedBy switches off only on 0 and false), which a person
// who wrote "off" or "no" does not expect.
func unrecognised(key string, value func(name string) string) (name, v string) {
	for _, name := range config.SwitchVars(key) {
		v := value(name)
		switch strings.ToLower(v) {
		case "", "0", "1", "false", "true":
			continue
		}
		return name, v
	}
	return "", ""
}

// unreadableFix is the fix for a log that cannot be read: a regular file
// of the user's own gets its read bit back, anything else is set aside.
func unreadableFix(path string, now time.Time) string {
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() && ownedByMe(fi) {
		return "chmod u+r -- " + shellQuote(path)
	}
	return setAside(path, now)
}
