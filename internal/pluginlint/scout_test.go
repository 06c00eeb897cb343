package pluginlint

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// shipped is the plugin tree the bundle embeds and writes.
const shipped = "../bundle/plugin"

// copyShipped copies the shipped plugin tree into a temporary directory.
func copyShipped(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	err := filepath.WalkDir(shipped, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(shipped, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// rulesOf is the sorted set of rule names the findings carry.
func rulesOf(findings []string) []string {
	var rules []string
	for _, f := range findings {
		r, _, _ := strings.Cut(f, ":")
		if !slices.Contains(rules, r) {
			rules = append(rules, r)
		}
	}
	slices.Sort(rules)
	return rules
}

func TestShippedScoutPromptsAreClean(t *testing.T) {
	f, err := CheckScoutPrompts(shipped)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range f {
		t.Error(x)
	}
}

// mutate is one change to the copied plugin tree at dir.
type mutate func(t *testing.T, dir string)

// rewrite applies fn to each named file of the tree.
func rewrite(t *testing.T, dir string, files []string, fn func(string) string) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out := fn(string(b))
		if out == string(b) {
			t.Fatalf("mutant does not apply to %s", f)
		}
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var bothFiles = []string{ScoutSkillFile, ScoutAgentFile}

// replace changes the first occurrence of old in files; a run of blanks in
// old matches any run of blanks, so a clause wrapped differently in the two
// files is found in both.
func replace(files []string, old, new string) mutate {
	pat := regexp.MustCompile(strings.Join(strings.Fields(regexp.QuoteMeta(old)), `\s+`))
	if strings.HasSuffix(old, "\n") {
		pat = regexp.MustCompile(pat.String() + `\n`)
	}
	return func(t *testing.T, dir string) {
		rewrite(t, dir, files, func(s string) string {
			loc := pat.FindStringIndex(s)
			if loc == nil {
				return s
			}
			return s[:loc[0]] + new + s[loc[1]:]
		})
	}
}

const launch = `sh "${CLAUDE_PLUGIN_ROOT}/bin/procedures" `

// keywordFirst moves the gap-probe block above the recall block.
func keywordFirst(files ...string) mutate {
	return func(t *testing.T, dir string) {
		rewrite(t, dir, files, func(text string) string {
			recall := "```bash\n" + launch + "query-records --list-stores\n"
			gap := "```bash\n" + launch + "query-records --keyword \"<goal words>\"\n"
			i, r := strings.Index(text, gap), strings.Index(text, recall)
			if i < 0 || r < 0 {
				return text
			}
			j := strings.Index(text[i:], "```\n\n") + i + len("```\n\n")
			block := text[i:j]
			text = text[:i] + text[j:]
			return text[:r] + block + text[r:]
		})
	}
}

// sectionSwap moves section a (up to section b) after section c.
func sectionSwap(a, b, c string) mutate {
	return func(t *testing.T, dir string) {
		rewrite(t, dir, bothFiles, func(s string) string {
			i, j, k := strings.Index(s, a), strings.Index(s, b), strings.Index(s, c)
			if i < 0 || j < i || k < j {
				return s
			}
			return s[:i] + s[j:k] + s[i:j] + s[k:]
		})
	}
}

// scoutMutants each break one clause of the shipped prompts; want is the
// exact set of rules that must go red.
var scoutMutants = []struct {
	name  string
	apply mutate
	want  []string
}{
	{"a script path instead of the launcher",
		replace(bothFiles, launch+"query-records --list-stores", `bash "${CLAUDE_PLUGIN_ROOT}/scripts/query-records.sh" --list-stores`),
		[]string{"surface-only"}},
	{"a grep piped after a query",
		replace(bothFiles, launch+"query-records --list-stores", launch+"query-records --list-stores | grep refs"),
		[]string{"surface-only"}},
	{"the gap probes moved before recall",
		keywordFirst(bothFiles...),
		[]string{"list-stores", "recall-first"}},
	{"list-stores dropped from the recall call",
		replace(bothFiles, launch+"query-records --list-stores\n", ""),
		[]string{"list-stores"}},
	{"list-stores run after the probes",
		func(t *testing.T, dir string) {
			replace(bothFiles, launch+"query-records --list-stores\n", "")(t, dir)
			replace(bothFiles, "--links-to <trusted record id>\n", "--links-to <trusted record id>\n"+launch+"query-records --list-stores\n")(t, dir)
		},
		[]string{"list-stores"}},
	{"two --cat batches",
		replace(bothFiles, launch+"query-records --cat <path> <path>\n", launch+"query-records --cat <path>\n"+launch+"query-records --cat <path>\n"),
		[]string{"cat-batch"}},
	{"no --cat in a fence, only in prose",
		replace(bothFiles, launch+"query-records --cat <path> <path>\n", ""),
		[]string{"cat-batch"}},
	{"the warm read dropped",
		func(t *testing.T, dir string) {
			replace([]string{ScoutSkillFile}, launch+`session-digest-read --read "${CLAUDE_SESSION_ID}"`+"\n", "")(t, dir)
			replace([]string{ScoutAgentFile}, launch+`session-digest-read --read "<session id>"`+"\n", "")(t, dir)
		},
		[]string{"warm-start"}},
	{"the agent relies on a session id the CLI does not expand there",
		replace([]string{ScoutAgentFile}, `--read "<session id>"`, `--read "${CLAUDE_SESSION_ID}"`),
		[]string{"parity", "variables", "warm-start"}},
	{"a prior digest treated as coverage",
		replace(bothFiles, "never as a search you can skip", "and as coverage you need not search again"),
		[]string{"warm-start"}},
	{"the established/new split dropped",
		replace(bothFiles, "ALREADY ESTABLISHED: <records a prior digest gave and this pass re-read>\n", ""),
		[]string{"warm-start"}},
	{"repo resolution moved after recall",
		sectionSwap("## 0. Resolve the repository", "## 1. Start warm", "## 3. Probe the gaps"),
		[]string{"repo-first"}},
	{"the working directory first in the repo order",
		replace(bothFiles, "in this order: the goal text itself; then context you hold for this goal (not a digest of some other goal); then the working directory.",
			"in this order: the working directory; then the goal text itself; then context you hold for this goal."),
		[]string{"repo-first"}},
	{"the REPO: source annotation stripped",
		replace(bothFiles, "REPO: <owner/name or path> (source: goal text | this goal's context | working directory), or: not repo-scoped", "REPO: <owner/name or path>"),
		[]string{"repo-first"}},
	{"the never-silently prohibition moved away from UNREACHABLE",
		replace(bothFiles, " Never work around a query miss silently.", ""),
		[]string{"unreachable"}},
	{"the thoroughness clause dropped from the budget",
		replace(bothFiles, " The budget is a guide for batching and never a reason to skip a gap probe, a store, or a follow-up read: thoroughness comes first.", ""),
		[]string{"budget"}},
	{"grep claimed as the scout's own method",
		replace(bothFiles, "- Quote commands verbatim", "- Your greps and reads are the whole job.\n- Quote commands verbatim"),
		[]string{"sole-surface"}},
	{"the output shape loses TRAPS",
		replace(bothFiles, "TRAPS:\n  - <the mistake or failure mode to avoid, with its source>\n", ""),
		[]string{"output-shape"}},
	{"a variable the CLI does not expand",
		replace(bothFiles, launch+"query-records --list-stores", `sh "${CLAUDE_PLUGIN_DIR}/bin/procedures" query-records --list-stores`),
		[]string{"surface-only", "variables"}},
	{"the agent file drifts from the skill",
		replace([]string{ScoutAgentFile}, `--keyword "<word>"`, `--keyword "<other word>"`),
		[]string{"parity"}},
	{"the skill alone reverts to keyword-first",
		keywordFirst(ScoutSkillFile),
		[]string{"list-stores", "parity", "recall-first"}},
	{"the agent no longer says it does not bind the fork",
		func(t *testing.T, dir string) {
			replace([]string{ScoutAgentFile}, "This file does not bind the how-do-i fork (that fork follows skills/how-do-i/SKILL.md); it is your brief when you are spawned directly.", "This is your brief.")(t, dir)
			replace([]string{ScoutAgentFile}, "only. It does not bind the how-do-i fork: a forked skill runs the body of skills/how-do-i/SKILL.md, and only names this agent for identity.", "only.")(t, dir)
		},
		[]string{"agent-binding"}},
	{"the agent reopens Read",
		replace([]string{ScoutAgentFile}, "tools: Bash\n", "tools: Bash, Read, Grep, Glob\n"),
		[]string{"agent-binding"}},
	{"the fork skill loses its model pin",
		replace([]string{ScoutSkillFile}, "model: sonnet\n", ""),
		[]string{"fork-pin"}},
}

func TestScoutMutantsTurnTheirRuleRed(t *testing.T) {
	for _, m := range scoutMutants {
		t.Run(strings.ReplaceAll(m.name, " ", "_"), func(t *testing.T) {
			dir := copyShipped(t)
			m.apply(t, dir)
			f, err := CheckScoutPrompts(dir)
			if err != nil {
				t.Fatal(err)
			}
			if got := rulesOf(f); !slices.Equal(got, m.want) {
				t.Errorf("rules red = %v, want %v\n%s", got, m.want, strings.Join(f, "\n"))
			}
		})
	}
}

var reviewFiles = []string{ReviewSkillFile, ReviewAgentFile}

func TestReviewMutantsTurnTheirRuleRed(t *testing.T) {
	if f, err := CheckPrompts(shipped); err != nil || len(f) > 0 {
		t.Fatalf("shipped prompts: %v %v", err, f)
	}
	for _, m := range []struct {
		name  string
		apply mutate
		want  []string
	}{
		{"a claim accepted without its output", replace(reviewFiles, "and the output that command actually printed", "or a description of it"), []string{"review-evidence"}},
		{"UNVERIFIED without the settling command", replace(reviewFiles, "paired with the exact command that would settle it.", "to be checked later."), []string{"review-unverified"}},
		{"rounding up allowed", replace(reviewFiles, " Never round a partial result up to done.", ""), []string{"review-no-rounding"}},
		{"the reviewer agent granted a tool", replace([]string{ReviewAgentFile}, "tools: []\n", "tools: Bash\n"), []string{"agent-binding"}},
		{"the reviewer fork unpinned", replace([]string{ReviewSkillFile}, "model: sonnet\n", ""), []string{"fork-pin"}},
		{"the reviewer agent claims the fork", func(t *testing.T, dir string) {
			replace([]string{ReviewAgentFile}, "This file does not bind the am-i-done fork (that fork follows skills/am-i-done/SKILL.md);", "This file is")(t, dir)
			replace([]string{ReviewAgentFile}, "only. It does not bind the am-i-done fork: a forked skill runs the body of skills/am-i-done/SKILL.md, and only names this agent for identity.", "only.")(t, dir)
		}, []string{"agent-binding"}},
	} {
		t.Run(strings.ReplaceAll(m.name, " ", "_"), func(t *testing.T) {
			dir := copyShipped(t)
			m.apply(t, dir)
			f, err := CheckPrompts(dir)
			if err != nil {
				t.Fatal(err)
			}
			if got := rulesOf(f); !slices.Equal(got, m.want) {
				t.Errorf("rules red = %v, want %v\n%s", got, m.want, strings.Join(f, "\n"))
			}
		})
	}
}

// Adding --search to the recall call (issue 35's free-text query) is a
// one-line edit the rules accept, in either order within the call.
func TestScoutPromptsAcceptSearchBesideRecall(t *testing.T) {
	recall := launch + `query-records --recall "<goal words>"` + "\n"
	search := launch + `query-records --search "<goal words>"` + "\n"
	for _, m := range []mutate{
		replace(bothFiles, recall, recall+search),
		replace(bothFiles, recall, search+recall),
	} {
		dir := copyShipped(t)
		m(t, dir)
		f, err := CheckScoutPrompts(dir)
		if err != nil || len(f) > 0 {
			t.Errorf("--search beside --recall: %v\n%s", err, strings.Join(f, "\n"))
		}
	}
}

func TestScoutPromptTooLargeIsAnError(t *testing.T) {
	dir := copyShipped(t)
	os.WriteFile(filepath.Join(dir, ScoutSkillFile), []byte(strings.Repeat("x", maxPrompt+1)), 0o644)
	if _, err := CheckScoutPrompts(dir); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("a prompt over the cap: err = %v", err)
	}
}
