package evidence

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
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
