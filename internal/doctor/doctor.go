package doctor

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/procedures-go/procedures/internal/bundle"
	"github.com/procedures-go/procedures/internal/config"
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
	// Settings are what the hooks and record commands would read of the
	// environment (config.DoctorFrom, read once by the command).
	Settings config.Doctor
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
	since := o.Now.Add(-o.Since)
	r := &Report{Version: o.Version,
		Since: FormatDuration(o.Since) + " (since " + since.UTC().Format(time.RFC3339) + ")"}
	exe := multicall(o.Executable)
	switch {
	case o.Plugin != "":
		r.Plugin = o.Plugin
		checkPlugin(r, &o, o.Plugin, fixer{exe: exe})
	default:
		checkInstalled(r, &o, exe)
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

// checkPlugin adds the Wiring findings (and, with Lint, the lints) for
// one plugin directory.
func checkPlugin(r *Report, o *Options, plugin string, f fixer) {
	checkWiring(r, o, plugin, f)
	if o.Lint && plugin != "" {
		checkPluginLints(r, o, plugin)
	}
}

// checkInstalled checks the bundle this binary runs from and every copy
// of the plugin Claude Code recorded (FindInstalls), each directory once,
// each finding's subject led by the directory it is about.
func checkInstalled(r *Report, o *Options, exe string) {
	own := DefaultPlugin(o.Settings.BinDir, o.Executable)
	var installs []Install
	if o.Settings.PluginsDir != "" {
		var problems []string
		installs, problems = FindInstalls(o.Settings.PluginsDir)
		for _, p := range problems {
			r.add(Finding{Section: SectionWiring, Status: Warn, Subject: "installed plugins", Reason: p,
				Fix: "claude plugin list"})
		}
	}
	seen := map[string]bool{}
	key := func(dir string) string {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return real
		}
		return filepath.Clean(dir)
	}
	if own != "" {
		r.Plugin = own
		seen[key(own)] = true
		var in *Install
		for i := range installs {
			if key(installs[i].Dir) == key(own) {
				in = &installs[i]
			}
		}
		checkPlugin(r, o, own, fixer{in: in, exe: exe})
	}
	for i := range installs {
		in := &installs[i]
		r.Installs = append(r.Installs, in.Label())
		if seen[key(in.Dir)] {
			continue
		}
		seen[key(in.Dir)] = true
		if r.Plugin == "" {
			r.Plugin = in.Dir
		}
		r.prefix = in.Dir + ": "
		checkPlugin(r, o, in.Dir, fixer{in: in, exe: exe})
		r.prefix = ""
	}
	checkVersions(r, installs)
	if own == "" && len(installs) == 0 {
		checkWiring(r, o, "", fixer{exe: exe})
	}
}

// checkVersions warns about an installed copy whose version is not the
// version of the directory marketplace's source it was installed from:
// Claude Code copies the plugin again only when its version moves.
func checkVersions(r *Report, installs []Install) {
	for _, in := range installs {
		if in.Source {
			continue
		}
		for _, src := range installs {
			if !src.Source || src.ID != in.ID {
				continue
			}
			var doc struct{ Version string }
			if readJSON(filepath.Join(src.Dir, ".claude-plugin", "plugin.json"), &doc) != nil {
				continue
			}
			scope := in.Scope
			if scope == "" {
				scope = "user"
			}
			update := "claude plugin update -s " + scope + " " + shellQuote(in.ID)
			if doc.Version != in.Version {
				r.add(Finding{Section: SectionWiring, Status: Warn, Subject: in.ID + " version",
					Reason: fmt.Sprintf("Claude Code installed %s (%s); its marketplace's source %s is %q: the copy is stale until the plugin is updated",
						in.Version, in.Dir, src.Dir, doc.Version),
					Fix: update})
				continue
			}
			host := filepath.Join("bin", bundle.Host().String(), bundle.Host().Exe())
			if src.Clone && !sameFile(filepath.Join(in.Dir, host), filepath.Join(src.Dir, host)) {
				next := nextVersion(in.Version)
				r.add(Finding{Section: SectionWiring, Status: Warn, Subject: in.ID + " version",
					Reason: fmt.Sprintf("the installed copy's %s is another build than its source's, both at version %q: claude plugin update sees a new build only when the version moves",
						host, in.Version),
					Fix: "cd " + shellQuote(src.Root) + " && go run ./cmd/procedures bundle -o " + shellQuote(src.Rel) + " -version " + shellQuote(next) + " && " + update})
			}
		}
	}
}

// multicall is exe when it is the procedures multi-call binary (it can
// bundle), else "".
func multicall(exe string) string {
	if b := strings.TrimSuffix(filepath.Base(exe), ".exe"); b != "procedures" {
		return ""
	}
	if _, err := os.Stat(exe); err != nil {
		return ""
	}
	return exe
}

// sameFile reports whether a and b are both readable and hold the same
// bytes (each at most MaxBinary).
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	if err != nil || fa.Size() != fb.Size() || fa.Size() > MaxBinary {
		return false
	}
	da, err := os.ReadFile(a)
	if err != nil {
		return false
	}
	db, err := os.ReadFile(b)
	return err == nil && string(da) == string(db)
}

// MaxBinary caps the platform binaries the doctor compares.
const MaxBinary = 256 << 20

// nextVersion is a version after v for a rebuilt bundle: v with ".1"
// added to its pre-release part, or "-1" when it has none.
func nextVersion(v string) string {
	if strings.Contains(v, "-") {
		return v + ".1"
	}
	return v + "-1"
}
