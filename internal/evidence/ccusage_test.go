package evidence

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// ccusageEnv turns the ccusage parity test on (.ci/evidence sets it);
// ccusageBin names the ccusage binary (default: ccusage on PATH).
const (
	ccusageEnv = "PROCEDURES_EVIDENCE_CCUSAGE"
	ccusageBin = "PROCEDURES_CCUSAGE_BIN"
)

// ccusage returns the ccusage binary, skipping the test when parity
// checks are off or, outside CI, when ccusage is not installed. Under
// CI=true a missing ccusage fails.
func ccusage(tb testing.TB) string {
	tb.Helper()
	if os.Getenv(ccusageEnv) == "" {
		tb.Skip("ccusage parity is off: set " + ccusageEnv + "=1 (.ci/evidence does)")
	}
	bin := os.Getenv(ccusageBin)
	if bin == "" {
		bin = "ccusage"
	}
	p, err := exec.LookPath(bin)
	if err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("ccusage not found (%v): run .ci/install-ccusage", err)
		}
		tb.Skipf("ccusage not found (%v): run .ci/install-ccusage", err)
	}
	return p
}

type ccTotals struct {
	InputTokens         int64 `json:"inputTokens"`
	OutputTokens        int64 `json:"outputTokens"`
	CacheCreationTokens int64 `json:"cacheCreationTokens"`
	CacheReadTokens     int64 `json:"cacheReadTokens"`
}

// ccReport is one ccusage view: its rows (by period) and totals with cost.
type ccReport struct {
	Rows   map[string]ccRow
	Totals ccRow
}

type ccRow struct {
	ccTotals
	Period    string  `json:"period"`
	TotalCost float64 `json:"totalCost"`
}

// runCCUsageView runs `ccusage VIEW --json --offline [args]` (daily,
// weekly, monthly, session) in UTC on config/projects.
func runCCUsageView(tb testing.TB, bin, config, view string, args ...string) ccReport {
	tb.Helper()
	cmd := exec.Command(bin, append([]string{view, "--json", "--offline", "--timezone", "UTC"}, args...)...)
	cmd.Env = append(os.Environ(), "CLAUDE_CONFIG_DIR="+config, "TZ=UTC")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("ccusage %s: %v\n%s", view, err, stderr.Bytes())
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(out, &doc); err != nil {
		tb.Fatalf("ccusage output: %v\n%s", err, out)
	}
	var rows []ccRow
	r := ccReport{Rows: map[string]ccRow{}}
	if err := json.Unmarshal(doc[view], &rows); err != nil {
		tb.Fatalf("ccusage %s rows: %v", view, err)
	}
	if err := json.Unmarshal(doc["totals"], &r.Totals); err != nil {
		tb.Fatalf("ccusage %s totals: %v", view, err)
	}
	for _, row := range rows {
		r.Rows[row.Period] = row
	}
	return r
}

// runCCUsage runs `ccusage session --json --offline` on the projects
// directory under config (config/projects) and returns its totals.
func runCCUsage(tb testing.TB, bin, config string) ccTotals {
	tb.Helper()
	t, _ := runCCUsageState(tb, bin, config)
	return t
}

// runCCUsageState is runCCUsage that also returns the process's state
// (for its CPU time).
func runCCUsageState(tb testing.TB, bin, config string) (ccTotals, *os.ProcessState) {
	tb.Helper()
	cmd := exec.Command(bin, "session", "--json", "--offline")
	cmd.Env = append(os.Environ(), "CLAUDE_CONFIG_DIR="+config)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("ccusage: %v\n%s", err, stderr.Bytes())
	}
	var doc struct{ Totals ccTotals }
	if err := json.Unmarshal(out, &doc); err != nil {
		tb.Fatalf("ccusage output: %v\n%s", err, out)
	}
	return doc.Totals, cmd.ProcessState
}

func ourTotals(r *Report) ccTotals {
	var t ccTotals
	for _, c := range r.Cost {
		t.InputTokens += c.Input
		t.OutputTokens += c.Output
		t.CacheCreationTokens += c.CacheCreation
		t.CacheReadTokens += c.CacheRead
	}
	return t
}

// TestCCUsageParity: the four token totals equal ccusage's on the same
// files, for the real fixture in both layouts and for a generated corpus
// with streamed multi-row messages and rows without requestId.
func TestCCUsageParity(t *testing.T) {
	bin := ccusage(t)
	gen := filepath.Join(t.TempDir(), ".claude")
	genCorpus(t, filepath.Join(gen, "projects"), 12, 20, 64)
	for _, config := range []string{copyProjects(t, "testdata/nested"), copyProjects(t, "testdata/flat"), gen} {
		want := runCCUsage(t, bin, config)
		r, err := Sweep(Options{Projects: filepath.Join(config, "projects")})
		if err != nil {
			t.Fatal(err)
		}
		if got := ourTotals(r); got != want {
			t.Errorf("%s: evidence %+v, ccusage %+v", config, got, want)
		} else {
			t.Logf("%s: %+v (= ccusage)", config, got)
		}
	}
}

// copyProjects copies a testdata projects directory to <tmp>/.claude/projects
// and returns <tmp>/.claude, the CLAUDE_CONFIG_DIR ccusage reads.
func copyProjects(t *testing.T, src string) string {
	config := filepath.Join(t.TempDir(), ".claude")
	if err := os.CopyFS(filepath.Join(config, "projects"), os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return config
}

// usd compares two dollar sums to a billionth of a dollar per dollar
// (both add floats, in different orders).
func usd(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func totalsOf(r UsageRow) ccTotals {
	return ccTotals{InputTokens: r.Input, OutputTokens: r.Output, CacheCreationTokens: r.CacheCreation, CacheReadTokens: r.CacheRead}
}

// TestCCUsageViews: for every view ccusage has (day, week, month, session)
// our totals row equals ccusage's, tokens and dollars, and so does each
// day, week and month; our skill and model views sum to the same totals.
// The corpus mixes priced models (tiered sonnet turns past 200,000
// tokens, one-hour cache writes, fast turns) with an unpriced one, and a
// window (--since/--until) is checked against ccusage's inclusive dates.
func TestCCUsageViews(t *testing.T) {
	bin := ccusage(t)
	config := filepath.Join(t.TempDir(), ".claude")
	genMoneyCorpus(t, filepath.Join(config, "projects"))
	check := func(o Options, args ...string) {
		o.Projects, o.Location = filepath.Join(config, "projects"), time.UTC
		r := sweep(t, o)
		for _, v := range []struct{ ours, theirs string }{{"day", "daily"}, {"week", "weekly"}, {"month", "monthly"}, {"session", "session"}} {
			if v.ours == "session" && len(args) > 0 {
				continue // ccusage windows a session by its last activity (TestCCUsageSessionWindow)
			}
			cc := runCCUsageView(t, bin, config, v.theirs, args...)
			if got := totalsOf(r.Totals); got != cc.Totals.ccTotals || !usd(r.Totals.CostUSD, cc.Totals.TotalCost) {
				t.Errorf("%s %v totals: ours %+v $%v, ccusage %+v $%v", v.ours, args, got, r.Totals.CostUSD, cc.Totals.ccTotals, cc.Totals.TotalCost)
			}
			if v.ours == "session" {
				continue // ccusage keys a flat agent file as its own session; we file it under its parent
			}
			if len(r.Views[v.ours]) != len(cc.Rows) {
				t.Errorf("%s: %d rows, ccusage %d", v.ours, len(r.Views[v.ours]), len(cc.Rows))
			}
			for _, row := range r.Views[v.ours] {
				c := cc.Rows[row.Key]
				if totalsOf(row) != c.ccTotals || !usd(row.CostUSD, c.TotalCost) {
					t.Errorf("%s %s: ours %+v $%v, ccusage %+v $%v", v.ours, row.Key, totalsOf(row), row.CostUSD, c.ccTotals, c.TotalCost)
				}
			}
		}
		for _, v := range []string{"skill", "model"} {
			var sum UsageRow
			for _, row := range r.Views[v] {
				sum.Input += row.Input
				sum.Output += row.Output
				sum.CacheCreation += row.CacheCreation
				sum.CacheRead += row.CacheRead
				sum.CostUSD += row.CostUSD
			}
			if totalsOf(sum) != totalsOf(r.Totals) || !usd(sum.CostUSD, r.Totals.CostUSD) {
				t.Errorf("%s view sums to %+v $%v, totals %+v $%v", v, totalsOf(sum), sum.CostUSD, totalsOf(r.Totals), r.Totals.CostUSD)
			}
		}
		t.Logf("%v: %+v $%.6f (= ccusage)", args, totalsOf(r.Totals), r.Totals.CostUSD)
	}
	check(Options{})
	day := func(d int) time.Time { return time.Date(2026, 6, d, 0, 0, 0, 0, time.UTC) }
	check(Options{Since: day(3), Until: day(9)}, "--since", "20260603", "--until", "20260608")
}
