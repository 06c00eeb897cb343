// Package evidence is the evidence command: it sweeps the transcripts
// Claude Code writes and reports, in five sections, whether the retrieval
// loop works: the model tier of each fork skill, the cost in four token
// buckets, the scout forks' retrieval compliance, warm starts, and gate
// activity. It only reads.
//
// Usage:
//
//	procedures evidence [--projects DIR] [--since TIME] [--until TIME]
//	    [--session ID] [--skill NAME] [--split-at TIME] [--weights W,W,W,W]
//	    [--plugin DIR] [--json]
//
// Exit 0 on a report, 1 when the transcripts cannot be read, 2 on a usage
// error.
package evidence

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/doctor"
	"github.com/procedures-go/procedures/internal/evidence"
)

const usage = `Usage: procedures evidence [--projects DIR] [--since TIME] [--until TIME]
           [--session ID] [--skill NAME] [--split-at TIME] [--weights W,W,W,W]
           [--plugin DIR] [--prices FILE] [--timezone ZONE]
           [--by day|week|month|session|skill|model | --detail] [--json]

Sweeps the transcripts Claude Code writes (main sessions and their subagent
forks, in the nested and the flat layout). By default it prints a summary
that fits one screen: tokens and dollars in total, the most expensive
sessions, skills and models, the forks off their model pin, retrieval
compliance, warm starts and gate activity.

  --by VIEW     tokens and dollars per day, week (from Monday), month,
                session, skill or model, with a totals row
  --detail      every section, per session:
  1. Tier       assistant turns per fork skill and model, the skill's pin,
                the last turn off the pin, the first and last turn
  2. Cost       input, cache_creation, cache_read and output tokens and
                weighted units per skill and for the main thread
  3. Retrieval  per how-do-i fork: query-records calls versus other
                retrieval, one --cat batch, unexpanded ${CLAUDE_SKILL_DIR}
                or ${CLAUDE_SESSION_ID}, forks that made no query
  4. Warm       prior digests read back, --cat path overlap, digests
                written, user-typed /how-do-i with no digest
  5. Gates      how-do-i-gate denials, Stop-gate blocks and releases, and
                the fail-open log's records of the same sessions

It only reads (and keeps its per-file cache, see docs/evidence.md).

  --projects DIR    the transcripts (default $HOME/.claude/projects)
  --since TIME      only rows at or after TIME (RFC 3339 or YYYY-MM-DD, UTC)
  --until TIME      only rows before TIME
  --session ID      only this session
  --skill NAME      only this skill (how-do-i or procedures:how-do-i), or main
  --split-at TIME   split the cost into before/after eras at TIME (--detail)
  --weights LIST    units per input, cache_creation, cache_read, output token
                    (default 1,1.25,0.1,5)
  --plugin DIR      the plugin whose fork skills' model pins are compared
                    (default: the bundle this binary belongs to, then the
                    plugins Claude Code installed, then your own skills)
  --prices FILE     USD prices per million tokens laid over the embedded,
                    dated table (its format: docs/evidence.md)
  --timezone ZONE   the zone of days, weeks and months (IANA; default local)
  --json            print one JSON object (the schema: docs/evidence.md)

Exit status: 0 on a report, 1 when the transcripts cannot be read, 2 on a
usage error.
`

// Main runs the sweep.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, env cli.Env) int {
	return run(args, stdout, stderr, env, cli.IsTerminal(stdout))
}

// run is Main with the choice of aligned tables (a terminal) or
// tab-separated ones (a pipe) made.
func run(args []string, stdout, stderr io.Writer, env cli.Env, aligned bool) int {
	if code, done := (cli.Help{Name: "evidence", Usage: usage}).Answer(args, stdout, stderr); done {
		return code
	}
	fs := cli.FlagSet("procedures evidence")
	projects := fs.String("projects", "", "")
	since := fs.String("since", "", "")
	until := fs.String("until", "", "")
	session := fs.String("session", "", "")
	skill := fs.String("skill", "", "")
	splitAt := fs.String("split-at", "", "")
	weights := fs.String("weights", "", "")
	plugin := fs.String("plugin", "", "")
	asJSON := fs.Bool("json", false, "")
	by := fs.String("by", "", "")
	detail := fs.Bool("detail", false, "")
	pricesFile := fs.String("prices", "", "")
	zone := fs.String("timezone", "", "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return 0
		}
		return usageError(stderr, err.Error())
	}
	if fs.NArg() > 0 {
		return usageError(stderr, fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	o := evidence.Options{Session: *session, Skill: *skill, Weights: evidence.DefaultWeights}
	var err error
	for _, t := range []struct {
		name, val string
		dst       *time.Time
	}{{"--since", *since, &o.Since}, {"--until", *until, &o.Until}, {"--split-at", *splitAt, &o.SplitAt}} {
		if t.val == "" {
			continue
		}
		if *t.dst, err = parseTime(t.val); err != nil {
			return usageError(stderr, t.name+": "+err.Error())
		}
	}
	if !o.Since.IsZero() && !o.Until.IsZero() && !o.Until.After(o.Since) {
		return usageError(stderr, "--until must be after --since")
	}
	if *weights != "" {
		if o.Weights, err = parseWeights(*weights); err != nil {
			return usageError(stderr, "--weights: "+err.Error())
		}
	}
	if *by != "" && !slices.Contains(evidence.Views, *by) {
		return usageError(stderr, fmt.Sprintf("--by: %q is not one of %s", *by, strings.Join(evidence.Views, ", ")))
	}
	if *by != "" && *detail {
		return usageError(stderr, "--by and --detail: choose one")
	}
	set := config.EvidenceFrom(env.Get)
	if msg := where(&o, env, set.Home, *pricesFile, *zone, *projects, *plugin); msg != "" {
		return usageError(stderr, msg)
	}
	o.FailOpenLog, o.CacheDir = set.FailOpenLog, set.CacheDir
	o.JSONOnly = *asJSON
	if cli.IsTerminal(stderr) {
		p := &progress{w: stderr, start: time.Now()}
		o.Progress = p.update
		defer p.end()
	}
	// A soft limit, restored on return. The collector stays on: turned
	// off, a cold sweep touches fresh pages for all its garbage, which
	// costs more than collecting it (measured: 26% more CPU at 300 MB).
	if !set.MemLimitSet {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(evidence.MemoryLimit))
	}
	rep, err := evidence.Sweep(o)
	if err != nil {
		fmt.Fprintf(stderr, "procedures evidence: %v\n", err)
		return 1
	}
	write := func(w io.Writer) error { return rep.WriteSummary(w, aligned) }
	switch {
	case *asJSON:
		write = rep.WriteJSON
	case *detail:
		write = rep.WriteText
	case *by != "":
		write = func(w io.Writer) error { return rep.WriteView(w, *by, aligned) }
	}
	if err := write(stdout); err != nil {
		fmt.Fprintf(stderr, "procedures evidence: %v\n", err)
		return 1
	}
	return 0
}

// where fills in the prices, the time zone, the transcripts and the pins
// (home is $HOME), and returns what was wrong with them ("" when nothing).
func where(o *evidence.Options, env cli.Env, home, pricesFile, zone, projects, plugin string) string {
	o.Prices = evidence.DefaultPrices()
	if pricesFile != "" {
		if err := o.Prices.LoadPrices(pricesFile); err != nil {
			return "--prices: " + err.Error()
		}
	}
	if zone != "" {
		var err error
		if o.Location, err = time.LoadLocation(zone); err != nil {
			return fmt.Sprintf("--timezone: %q is not a known time zone", zone)
		}
	}
	o.Projects = projects
	if o.Projects == "" {
		if home == "" {
			return "HOME is not set: name the transcripts with --projects DIR"
		}
		o.Projects = filepath.Join(home, ".claude", "projects")
	}
	if fi, err := os.Stat(o.Projects); err != nil || !fi.IsDir() {
		return fmt.Sprintf("--projects: %s is not a readable directory", o.Projects)
	}
	dir := plugin
	if dir == "" {
		exe, _ := os.Executable()
		dir = doctor.DefaultPlugin(config.BinDir(env.Get), exe)
	} else if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Sprintf("--plugin: %s is not a readable directory", dir)
	}
	ps := evidence.NewPinSet()
	ps.AddPlugin(dir, evidence.PinFromPlugin)
	if plugin == "" {
		ps.AddInstalled(home)
		ps.AddUserSkills(home)
	}
	o.Pins, o.PinFrom = ps.Pins, ps.From
	return ""
}

func usageError(stderr io.Writer, msg string) int {
	fmt.Fprintf(stderr, "procedures evidence: %s\n(procedures evidence --help shows the usage)\n", msg)
	return 2
}

func parseTime(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("invalid time %q (want RFC 3339, e.g. 2026-12-01T19:30:00Z, or YYYY-MM-DD)", s)
}

func parseWeights(s string) ([4]float64, error) {
	var w [4]float64
	parts := strings.Split(s, ",")
	if len(parts) != 4 {
		return w, fmt.Errorf("%q: want four comma-separated numbers (input, cache_creation, cache_read, output)", s)
	}
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || f < 0 || f != f || f > 1e9 {
			return w, fmt.Errorf("%q is not a non-negative number", p)
		}
		w[i] = f
	}
	return w, nil
}

// progress prints one line on a terminal, rewritten in place, once the
// sweep has run for more than a second.
type progress struct {
	mu      sync.Mutex
	w       io.Writer
	start   time.Time
	last    time.Time
	printed bool
}

func (p *progress) update(done, total int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if now.Sub(p.start) < time.Second || now.Sub(p.last) < 200*time.Millisecond {
		return
	}
	p.last, p.printed = now, true
	fmt.Fprintf(p.w, "\rprocedures evidence: %d/%d MB read", done>>20, total>>20)
}

func (p *progress) end() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.printed {
		fmt.Fprintln(p.w)
	}
}
