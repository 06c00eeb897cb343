package doctor

import (
	"strconv"
	"strings"
	"time"
)

// DefaultSince is the default window of the log summaries.
const DefaultSince = 7 * 24 * time.Hour

// Options say what to inspect.
type Options struct {
	// Plugin is the bundle to check; "" means the one the running binary
	// belongs to ([DefaultPlugin]).
	Plugin string
	// Since is the window of the log summaries, back from Now.
	Since time.Duration
	// Now is the clock reading the window ends at.
	Now time.Time
	// Getenv is the environment the hooks would see.
	Getenv func(string) string
	// Executable is the running binary's path ("" when unknown).
	Executable string
	// Version is this build's version, for the report header.
	Version string
	// TurnStateDefault replaces the default turn-state directory
	// (turnstate.DefaultDir when "") in the doctor's view only, so a
	// test can show the shared-host fallback without touching the real one.
	TurnStateDefault string
	// Lint also runs tierpin-lint and plugin-surface-lint on the plugin.
	Lint bool
}

// Run inspects everything the options name and returns the findings, in
// section order. It only reads.
func Run(o Options) *Report {
	if o.Since <= 0 {
		o.Since = DefaultSince
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	plugin := o.Plugin
	if plugin == "" {
		plugin = DefaultPlugin(o.Getenv, o.Executable)
	}
	since := o.Now.Add(-o.Since)
	r := &Report{Version: o.Version, Plugin: plugin,
		Since: FormatDuration(o.Since) + " (since " + since.UTC().Format(time.RFC3339) + ")"}
	checkWiring(r, &o, plugin)
	if o.Lint {
		checkPluginLints(r, plugin)
	}
	checkSwitches(r, &o, since)
	checkFailOpen(r, &o, since)
	checkStores(r, &o)
	return r
}

// FormatDuration writes d in whole days ("7d") when it is a whole number
// of days, else as time.Duration does.
func FormatDuration(d time.Duration) string {
	if d%(24*time.Hour) == 0 {
		return strconv.FormatInt(int64(d/(24*time.Hour)), 10) + "d"
	}
	return d.String()
}

// ParseDuration reads a window: a number of days ("7d") or anything
// time.ParseDuration accepts ("36h", "90m"). It must be positive.
func ParseDuration(s string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok && n != "" {
		days, err := strconv.ParseUint(n, 10, 16)
		if err != nil || days == 0 {
			return 0, &DurationError{s}
		}
		return time.Duration(days) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, &DurationError{s}
	}
	return d, nil
}

// A DurationError is a window that is not a positive duration.
type DurationError struct{ Value string }

func (e *DurationError) Error() string {
	return "invalid duration " + strconv.Quote(e.Value) + " (want e.g. 7d, 36h or 90m)"
}
