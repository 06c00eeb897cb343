//go:build unix

package commands

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/bundle"
	"github.com/procedures-go/procedures/internal/wiring"
)

// The bundles BenchmarkHookTurn runs: turnBundleEnv names the bundle under
// test (a directory holding bin/procedures and bin/<os>-<arch>/; default: one
// built from this tree for the host), turnVsEnv a second one whose turns
// alternate with the first (for example one written from main).
const (
	turnBundleEnv = "PROCEDURES_TURN_BUNDLE"
	turnVsEnv     = "PROCEDURES_TURN_VS"
)

// turnPayloadDir holds hook payloads captured from Claude Code 2.1.332,
// verbatim: their paths name /project, replaced by the sandbox's project.
const turnPayloadDir = "testdata/turn"

// turnHook is one hook call of a turn: the command hooks.json runs, the
// payload on its stdin, and the exit status it must give.
type turnHook struct {
	command, payload string
	code             int
}

// goodRecords are records of the shipped corpus a turn's Writes rewrite
// (clean: enforce-frontmatter passes them).
var goodRecords = []string{
	"2026-06-20-protect-main-branch.md", "2026-07-01-adopt-go-for-cli-tools.md",
	"2026-07-15-structured-logging.md", "2026-08-01-delegate-reviews.md",
	"2026-08-10-cache-dependency-downloads.md", "2026-06-20-protect-main-branch.md",
}

// hookTurn is one main-agent turn of 29 hook calls, as hooks.json wires
// them: the prompt, a how-do-i lookup (whose fork reads the digests), six
// Bash calls, seven Writes of records (one of them the captured bad
// record, which enforce-frontmatter blocks), the am-i-done review, and the
// Stop.
func hookTurn(payloads map[string]string) []turnHook {
	turn := []turnHook{
		{"turn-state-reset", payloads["UserPromptSubmit"], 0},
		{"how-do-i-gate", payloads["PreToolUse-Skill"], 0},
		{"how-do-i-gate", payloads["PreToolUse-Bash-subagent"], 0},
		{"turn-state-record", payloads["PostToolUse-Skill-how-do-i"], 0},
		{"digest-record", payloads["PostToolUse-Skill-how-do-i"], 0},
	}
	for range 6 {
		turn = append(turn, turnHook{"how-do-i-gate", payloads["PreToolUse-Bash"], 0})
	}
	turn = append(turn,
		turnHook{"how-do-i-gate", payloads["PreToolUse-Write"], 0},
		turnHook{"enforce-frontmatter", payloads["PostToolUse-Write"], 2})
	for _, good := range goodRecords {
		rewrite := func(p string) string {
			return strings.ReplaceAll(p, "references/decisions/bad-3.md", "references/decisions/"+good)
		}
		turn = append(turn,
			turnHook{"how-do-i-gate", rewrite(payloads["PreToolUse-Write"]), 0},
			turnHook{"enforce-frontmatter", rewrite(payloads["PostToolUse-Write"]), 0})
	}
	pre := strings.ReplaceAll(payloads["PreToolUse-Skill"], "procedures:how-do-i", "procedures:am-i-done")
	return append(turn,
		turnHook{"how-do-i-gate", pre, 0},
		turnHook{"turn-state-record", payloads["PostToolUse-Skill-am-i-done"], 0},
		turnHook{"digest-record", payloads["PostToolUse-Skill-am-i-done"], 0},
		turnHook{"am-i-done-gate", payloads["Stop-stop_hook_active-false"], 0})
}

// turnSandbox is one bundle installed as a plugin beside a project (a copy
// of the shipped corpus) and its own turn state and logs.
type turnSandbox struct {
	env      []string
	project  string
	failopen string
	turn     []turnHook
	lines    map[string]string // hook -> the command line its bundle's hooks.json runs
}

// bashOriginalLine is the hooks.json line the bash original's plugin runs
// a hook with.
func bashOriginalLine(hook string) string {
	return "bash ${CLAUDE_PLUGIN_ROOT}/hooks/" + hook + ".sh"
}

// hookLines maps each hook to the command line bundleDir/hooks/hooks.json
// runs it with: the bundle's own form (a bundle written before the
// launcher was sourced runs sh <launcher> <hook>), so two bundles compare
// as Claude Code would run each. Without a hooks.json it is HookCommand's.
func hookLines(bundleDir string) (map[string]string, error) {
	lines := map[string]string{}
	data, err := os.ReadFile(filepath.Join(bundleDir, "hooks", "hooks.json"))
	if errors.Is(err, fs.ErrNotExist) {
		for _, h := range wiring.Hooks() {
			lines[h.Command] = bundle.HookCommand(h.Command)
		}
		return lines, nil
	}
	if err != nil {
		return nil, err
	}
	var doc struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string }
		}
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s/hooks/hooks.json: %v", bundleDir, err)
	}
	for _, groups := range doc.Hooks {
		for _, g := range groups {
			for _, hd := range g.Hooks {
				for _, h := range wiring.Hooks() {
					if hd.Command == bundle.HookCommand(h.Command) || hd.Command == bundle.OldHookCommand(h.Command) ||
						hd.Command == bashOriginalLine(h.Command) {
						lines[h.Command] = hd.Command
					}
				}
			}
		}
	}
	for _, h := range wiring.Hooks() {
		if lines[h.Command] == "" {
			return nil, fmt.Errorf("%s/hooks/hooks.json runs %s through no launcher line", bundleDir, h.Command)
		}
	}
	return lines, nil
}

// newTurnSandbox copies bundleDir's bin/ into a plugin with the two skills,
// and reads the captured payloads with /project made the sandbox's project.
func newTurnSandbox(b *testing.B, bundleDir, dir string) *turnSandbox {
	b.Helper()
	plugin, project := filepath.Join(dir, "plugin"), filepath.Join(dir, "project")
	// bin/ of a bundle; hooks/ and scripts/ of the bash original's plugin
	// directory (plugins/procedures of its repository), which a turn can
	// be compared with too.
	for _, sub := range []string{"bin", "hooks", "scripts"} {
		if _, err := os.Stat(filepath.Join(bundleDir, sub)); err != nil {
			continue
		}
		if err := os.CopyFS(filepath.Join(plugin, sub), os.DirFS(filepath.Join(bundleDir, sub))); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(plugin, "bin", "procedures")); err == nil {
		if err := os.Chmod(filepath.Join(plugin, "bin", "procedures"), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	for _, skill := range []string{"how-do-i", "am-i-done"} {
		d := filepath.Join(plugin, "skills", skill)
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
		text := "---\nname: " + skill + "\ndescription: the " + skill + " skill\ncontext: fork\n---\nbody\n"
		if err := os.WriteFile(filepath.Join(d, "SKILL.md"), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.CopyFS(project, os.DirFS(filepath.Join("..", "..", "..", "testdata", "kb"))); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, "references", "decisions", "bad-3.md"), []byte("---\ntitle: bad\n---\nbody\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	payloads := map[string]string{}
	err := fs.WalkDir(os.DirFS(turnPayloadDir), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(filepath.Join(turnPayloadDir, name))
		payloads[strings.TrimSuffix(name, ".json")] = strings.ReplaceAll(string(data), `"/project`, `"`+project)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	lines, err := hookLines(bundleDir)
	if err != nil {
		b.Fatal(err)
	}
	s := &turnSandbox{project: project, failopen: filepath.Join(dir, "failopen.jsonl"), turn: hookTurn(payloads), lines: lines}
	s.env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + filepath.Join(dir, "home"),
		"CLAUDE_PLUGIN_ROOT=" + plugin,
		"CLAUDE_PROJECT_DIR=" + project,
		"KNOWLEDGE_ROOT=" + project,
		"TURN_STATE_DIR=" + filepath.Join(dir, "turn-state"),
		"GATE_FAILOPEN_LOG=" + s.failopen,
		"GATE_ESCAPE_LOG=" + filepath.Join(dir, "escape.jsonl"),
	}
	return s
}

// hook runs the turn's hook i as Claude Code runs a hooks.json command
// (sh -c with the bundle's line, the payload on stdin) and returns the time
// it took. With check it
// fails on an unexpected exit status or output (a gate that denies or
// blocks: the turn is not the one intended).
func (s *turnSandbox) hook(b *testing.B, i int, check bool) time.Duration {
	h := s.turn[i]
	cmd := exec.Command("sh", "-c", s.lines[h.command])
	cmd.Env, cmd.Dir = s.env, s.project
	cmd.Stdin = strings.NewReader(h.payload)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	if !check {
		return took
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		b.Fatal(err)
	}
	if code != h.code || out.Len() > 0 || (code == 0 && errb.Len() > 0) {
		b.Fatalf("hook %d, %s: exit %d (want %d), stdout %q, stderr %q", i+1, h.command, code, h.code, out.String(), errb.String())
	}
	return took
}

// check runs the turn once, checking every hook, and fails if it recorded a
// fail-open row.
func (s *turnSandbox) check(b *testing.B) {
	for i := range s.turn {
		s.hook(b, i, true)
	}
	if data, err := os.ReadFile(s.failopen); err == nil {
		b.Fatalf("the turn recorded fail-open rows:\n%s", data)
	}
}

// BenchmarkHookTurn replays a turn of 29 hook calls through the launcher
// with the payload shapes Claude Code 2.1.332 sends, and reports the
// turn's time (turn-ms) and a hook's mean (hook-ms). With PROCEDURES_TURN_VS
// naming a second bundle, the two run the same turn alternately, hook by
// hook (so a change in the machine's load reaches both alike), and it
// reports that bundle's turn too (vs-turn-ms) and vs-turn-ms/turn-ms
// (x-faster: above 1, this bundle's turn is the faster). The first turn of
// each is run outside the timing, checking every hook's exit status and
// output. It measures; it asserts no time.
//
//	go test -run '^$' -bench HookTurn -benchtime 20x ./internal/cli/multicall
func BenchmarkHookTurn(b *testing.B) {
	dir := b.TempDir()
	ours := os.Getenv(turnBundleEnv)
	if ours == "" {
		ours = filepath.Join(dir, "bundle")
		if err := bundle.Write(bundle.Options{Dir: ours, Platforms: []bundle.Platform{bundle.Host()}, Version: "0"}); err != nil {
			b.Fatal(err)
		}
	}
	a := newTurnSandbox(b, ours, filepath.Join(dir, "a"))
	if n := len(a.turn); n != 29 {
		b.Fatalf("the turn has %d hook calls, want 29", n)
	}
	var vs *turnSandbox
	if other := os.Getenv(turnVsEnv); other != "" {
		vs = newTurnSandbox(b, other, filepath.Join(dir, "vs"))
		vs.check(b)
	}
	a.check(b)
	var ta, tvs time.Duration
	b.ResetTimer()
	for b.Loop() {
		for i := range a.turn {
			ta += a.hook(b, i, false)
			if vs != nil {
				tvs += vs.hook(b, i, false)
			}
		}
	}
	n := float64(b.N)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / n / 1000 }
	b.ReportMetric(ms(ta), "turn-ms")
	b.ReportMetric(ms(ta)/float64(len(a.turn)), "hook-ms")
	if vs != nil {
		b.ReportMetric(ms(tvs), "vs-turn-ms")
		b.ReportMetric(float64(tvs)/float64(ta), "x-faster")
	}
}

// A bundle's hooks.json decides the line a turn runs: this tree's bundle
// sources the launcher; one written before ran it with sh.
func TestHookLines(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, form := range []func(string) string{bundle.HookCommand, bundle.OldHookCommand} {
		if err := os.WriteFile(filepath.Join(dir, "hooks", "hooks.json"), wiring.HooksJSON(form), 0o644); err != nil {
			t.Fatal(err)
		}
		lines, err := hookLines(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range wiring.Hooks() {
			if lines[h.Command] != form(h.Command) {
				t.Errorf("%s: %q, want %q", h.Command, lines[h.Command], form(h.Command))
			}
		}
	}
	os.WriteFile(filepath.Join(dir, "hooks", "hooks.json"), []byte(`{"hooks": {}}`), 0o644)
	if _, err := hookLines(dir); err == nil {
		t.Error("a hooks.json without our lines was taken")
	}
	if lines, err := hookLines(t.TempDir()); err != nil || lines["how-do-i-gate"] != bundle.HookCommand("how-do-i-gate") {
		t.Errorf("no hooks.json: %v %v", lines, err)
	}
}
