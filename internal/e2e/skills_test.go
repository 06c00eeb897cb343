package e2e

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/bundle"
)

// shippedSkills puts the plugin's own files back over the test stand-ins
// of the base bundle, after mutate (when set) changes them.
func shippedSkills(t *testing.T, mutate func(name string, b []byte) []byte) func(string) {
	return func(plugin string) {
		err := fs.WalkDir(bundle.PluginFiles(), ".", func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := fs.ReadFile(bundle.PluginFiles(), name)
			if err != nil {
				return err
			}
			if mutate != nil {
				b = mutate(name, b)
			}
			p := filepath.Join(plugin, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			return os.WriteFile(p, b, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// scoutStore is a small record store the scout's queries find.
var scoutStore = map[string]string{
	"references/decisions/2026-01-01-release-tags.md": "---\nid: 2026-01-01-release-tags\nkind: decision\ndate: 2026-01-01\nkeywords: [release, tags]\nlinks: {}\nstatus: active\n---\n# Release tags\n\nTag releases vX.Y.Z on main.\n",
	"references/procedures/make-markers.md":           "---\nid: make-markers\nkind: procedure\ndate: 2026-01-02\nkeywords: [marker, files]\nlinks: {decision: 2026-01-01-release-tags}\nstatus: active\n---\n# Make marker files\n\n$ touch marker\n",
	"mistakes.jsonl":                                  `{"ts":"2026-01-01T00:00:00Z","session":"s","category":"wrong-action","description":"made the marker files before the release tag","correction":"tag first","pattern":"early-marker","severity":"low"}` + "\n",
}

// evidenceReport is the part of `procedures evidence --json` checked here.
type evidenceReport struct {
	Retrieval struct {
		Forks       int `json:"forks"`
		Compliant   int `json:"compliant"`
		Unexpanded  int `json:"unexpanded"`
		SingleCat   int `json:"single_cat"`
		RecallFirst int `json:"recall_first"`
		Violations  []struct {
			Kind    string `json:"kind"`
			Command string `json:"command"`
		} `json:"violations"`
	} `json:"retrieval"`
	Warm struct {
		DigestReads    int `json:"digest_reads"`
		WarmReads      int `json:"warm_reads"`
		DigestsWritten int `json:"digests_written"`
	} `json:"warm"`
}

// runShippedScout runs two turns of one session, each invoking the shipped
// how-do-i skill with the mock playing its fork literally, and returns what
// went wrong by the contract: from `procedures evidence --json` over the
// session's transcripts, and from the fork's tool results.
func runShippedScout(t *testing.T, mutate func(string, []byte) []byte) []string {
	s := newSession(t, shippedSkills(t, mutate), true)
	s.mock.PlayForksLiterally()
	store := filepath.Join(s.dir, "store")
	for name, text := range scoutStore {
		p := filepath.Join(store, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"QUERY_RECORDS_ROOT=" + store}
	s.turn("turn 1: make the marker files", env,
		func(Last) Reply { return skill("procedures:how-do-i", "marker files release tags") },
		func(Last) Reply { return Reply{Text: "done (turn 1)."} })
	var review Last
	s.turn("turn 2: tag the release", env,
		func(Last) Reply { return skill("procedures:how-do-i", "release tags after the marker files") },
		func(Last) Reply {
			return skill("procedures:am-i-done", "claim: the scout ran; command: how-do-i; output: GOAL: release tags")
		},
		func(l Last) Reply { review = l; return Reply{Text: "done (turn 2)."} })

	var bad []string
	if !strings.Contains(review.ToolResult, "VERDICT: DONE") {
		bad = append(bad, "the shipped am-i-done fork did not answer with its verdict: "+tail(review.ToolResult, 300))
	}
	for _, r := range s.mock.Requests() {
		if r.Kind == "fork" && r.Last.IsError {
			bad = append(bad, "a fork's Bash call failed: "+tail(r.Last.ToolResult, 300))
		}
	}
	for _, run := range s.mock.ForkRuns() {
		if strings.Contains(run, "${") {
			bad = append(bad, "a fork ran an unexpanded variable: "+run)
		}
	}
	cmd := exec.Command("sh", filepath.Join(s.plugin, "bin", "procedures"), "evidence",
		"--projects", filepath.Join(s.dir, "home", ".claude", "projects"), "--session", s.id, "--json")
	// The sweep's cache goes to the sandbox, never to the user's cache.
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(s.dir, "cache"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("procedures evidence: %v", err)
	}
	var ev evidenceReport
	if err := json.Unmarshal(out, &ev); err != nil {
		t.Fatalf("procedures evidence --json: %v\n%s", err, out)
	}
	r, w := ev.Retrieval, ev.Warm
	if r.Forks != 2 {
		bad = append(bad, fmt.Sprintf("evidence saw %d how-do-i forks, want 2", r.Forks))
	}
	check := func(name string, got int) {
		if got != r.Forks || got == 0 {
			bad = append(bad, fmt.Sprintf("%s: %d of %d forks", name, got, r.Forks))
		}
	}
	check("recall_first", r.RecallFirst)
	check("single_cat", r.SingleCat)
	check("compliant", r.Compliant)
	check("digest_reads", w.DigestReads)
	check("digests_written", w.DigestsWritten)
	if r.Unexpanded != 0 {
		bad = append(bad, fmt.Sprintf("unexpanded: %d", r.Unexpanded))
	}
	for _, v := range r.Violations {
		bad = append(bad, "violation: "+v.Kind+": "+v.Command)
	}
	if w.WarmReads != 1 {
		bad = append(bad, fmt.Sprintf("warm_reads: %d, want 1 (the second fork reads the first digest)", w.WarmReads))
	}
	return bad
}

// The shipped how-do-i skill, run for real: its fork runs every fenced
// block through the Bash tool with the variables as the CLI expanded them,
// --recall first, one --cat batch, no Read; each digest is stored and the
// second invocation reads the first back.
func TestE2EShippedScoutSkill(t *testing.T) {
	for _, b := range runShippedScout(t, nil) {
		t.Error(b)
	}
}

// Each broken edit of the shipped skill turns the run red. Each mutant is a
// whole two-turn session, so they run only with PROCEDURES_E2E_MUTANTS=1.
func TestE2EShippedScoutSkillMutants(t *testing.T) {
	if os.Getenv("PROCEDURES_E2E_MUTANTS") != "1" {
		t.Skip("the shipped skill's mutants: set PROCEDURES_E2E_MUTANTS=1 (with PROCEDURES_E2E=1) to run them")
	}
	const launch = `sh "${CLAUDE_PLUGIN_ROOT}/bin/procedures" `
	skillOnly := func(fn func(string) string) func(string, []byte) []byte {
		return func(name string, b []byte) []byte {
			if name != "skills/how-do-i/SKILL.md" {
				return b
			}
			out := fn(string(b))
			if out == string(b) {
				t.Fatalf("mutant does not apply")
			}
			return []byte(out)
		}
	}
	for _, m := range []struct {
		name   string
		mutate func(string, []byte) []byte
		want   string // a problem the run must report
	}{
		{"a variable the CLI does not expand", skillOnly(func(s string) string {
			return strings.ReplaceAll(s, "${CLAUDE_PLUGIN_ROOT}", "${CLAUDE_PLUGIN_DIR}")
		}), "unexpanded"},
		{"a script path", skillOnly(func(s string) string {
			return strings.ReplaceAll(s, launch+"query-records", `bash "${CLAUDE_PLUGIN_ROOT}/scripts/query-records.sh"`)
		}), "single_cat"},
		{"the gap probes before recall", skillOnly(func(s string) string {
			i := strings.Index(s, "## 3. Probe the gaps")
			j := strings.Index(s, "## 4. Read the candidates")
			k := strings.Index(s, "## 2. Recall first")
			if i < 0 || j < i || k < 0 || k > i {
				return s
			}
			return s[:k] + s[i:j] + s[k:i] + s[j:]
		}), "recall_first"},
		{"the --cat block missing", skillOnly(func(s string) string {
			return strings.Replace(s, "```bash\n"+launch+"query-records --cat <path> <path>\n```\n", "", 1)
		}), "single_cat"},
	} {
		t.Run(strings.ReplaceAll(m.name, " ", "_"), func(t *testing.T) {
			bad := runShippedScout(t, m.mutate)
			t.Logf("problems found:\n%s", strings.Join(bad, "\n"))
			if !strings.Contains(strings.Join(bad, "\n"), m.want) {
				t.Errorf("the mutant was not caught: no %q problem", m.want)
			}
		})
	}
}
