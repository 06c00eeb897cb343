package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// noJQPath is a directory of links to every program on PATH but jq and
// awk (each spelling of it), for a PATH on which the bash original could
// not run.
func noJQPath(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	absent := []string{"jq", "awk", "gawk", "mawk", "nawk", "original-awk", "busybox"}
	seen := map[string]bool{}
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			name := e.Name()
			if seen[name] || slices.Contains(absent, name) {
				continue
			}
			seen[name] = true
			os.Symlink(filepath.Join(d, name), filepath.Join(dir, name))
		}
	}
	return dir
}

// TestE2ESwapBashOriginal: the upstream-shaped plugin (the bash original's
// hook lines, scripts and skill calls; internal/bundle/testdata/upstream),
// swapped by bundling into it, installed into Claude Code from a directory
// marketplace, runs a session on a PATH without jq and awk: every hook
// call is ours (no bash hook script starts), the fork's digest read and
// query-records.sh run the Go binary through the shims, and the rows of
// the suite hold: the deny reaches the model, the digest is stored and
// replayed, Stop is blocked, the frontmatter block reaches the model, and
// nothing is logged fail-open.
func TestE2ESwapBashOriginal(t *testing.T) {
	b := newInstallBox(t)
	market := filepath.Join(b.dir, "upstream market")
	plugin := filepath.Join(market, "plugins", "procedures")
	if err := os.MkdirAll(filepath.Join(market, ".claude-plugin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(market, ".claude-plugin", "marketplace.json"), []byte(`{
  "name": "upstream-fixture",
  "owner": {"name": "fixture"},
  "plugins": [{"name": "procedures", "source": "./plugins/procedures", "description": "the bash original's shape"}]
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := copyTree(upstreamFixture(), plugin); err != nil {
		t.Fatal(err)
	}

	// The swap: one bundle into the plugin directory, naming what it replaced.
	out := b.must(b.dir, b.hostExe, "bundle", "-o", plugin, "-platforms", "host", "-self")
	for _, want := range []string{"replaced the bash original's hook PreToolUse: bash ${CLAUDE_PLUGIN_ROOT}/hooks/how-do-i-gate.sh",
		"replaced the bash original's scripts/query-records.sh by a shim"} {
		if !strings.Contains(out, want) {
			t.Errorf("the bundle did not say %q:\n%s", want, out)
		}
	}
	b.must(b.dir, b.claude, "plugin", "marketplace", "add", market)
	b.must(b.dir, b.claude, "plugin", "install", "procedures@upstream-fixture")
	if out, code, fs := b.doctor(); code != 0 || len(fs) > 0 {
		t.Fatalf("doctor after the swap: exit %d %v\n%s", code, fs, out)
	}

	// A session of the installed plugin. A directory marketplace runs the
	// plugin from its source folder: the capture wrapper goes there.
	s := &session{t: t, dir: b.dir, plugin: plugin, installed: true,
		project: filepath.Join(b.dir, "project"), capture: filepath.Join(b.dir, "capture")}
	if err := os.WriteFile(filepath.Join(plugin, "e2e-capture"), []byte(captureScript), 0o755); err != nil {
		t.Fatal(err)
	}
	wrapHooks(t, plugin)
	for _, d := range []string{s.project, s.capture} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var err error
	if s.mock, err = NewMock(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.mock.Close)
	s.id = uuid()
	path := noJQPath(t, filepath.Join(b.dir, "path without jq"))
	for _, prog := range []string{"jq", "awk"} {
		if p, err := lookIn(path, prog); err == nil {
			t.Fatalf("%s is on the session's PATH: %s", prog, p)
		}
	}
	bashLog := filepath.Join(b.dir, "bash-started.log")
	s.env = append(slices.DeleteFunc(slices.Clone(b.env), func(v string) bool { return strings.HasPrefix(v, "PATH=") }),
		"PATH="+path,
		"ANTHROPIC_BASE_URL="+s.mock.URL,
		"ANTHROPIC_API_KEY=sk-ant-e2e-dummy",
		"KNOWLEDGE_ROOT="+filepath.Join(s.project, "kb"),
		"E2E_CAPTURE_DIR="+s.capture,
		"E2E_BASH_LOG="+bashLog,
	)
	rec := filepath.Join(s.project, "kb", "references", "procedures", "e2e", "PROCEDURE.md")
	if err := os.MkdirAll(filepath.Dir(rec), 0o755); err != nil {
		t.Fatal(err)
	}
	var r recorder
	s.turn("turn 1: swap", []string{"E2E_HOOK_ENTRYPOINT=cli"},
		r.step(bash("touch denied-1")),
		r.step(skill("procedures:how-do-i", "do the swapped thing")),
		r.step(bash("touch allowed-1")),
		r.step(Reply{Tool: "Write", Input: map[string]any{"file_path": rec, "content": "---\nname: e2e\n---\nbody\n"}}),
		r.step(Reply{Text: "done, unreviewed."}),
		r.step(skill("procedures:am-i-done", "touch allowed-1: ran it, exit 0")),
		r.step(Reply{Text: "reviewed and done."}),
	)
	if l := r.at(t, 1); !l.IsError || !strings.Contains(l.ToolResult, gateText) || exists(filepath.Join(s.project, "denied-1")) {
		t.Errorf("the deny did not reach the model: %+v", l)
	}
	if l := r.at(t, 3); l.IsError || !exists(filepath.Join(s.project, "allowed-1")) {
		t.Errorf("Bash after the skill was not allowed: %+v", l)
	}
	if l := r.at(t, 4); !strings.Contains(l.Text, "FRONTMATTER: references/procedures/e2e/PROCEDURE.md violates") {
		t.Errorf("the frontmatter block did not reach the model: %+v", l)
	}
	if l := r.at(t, 5); !strings.Contains(l.Text, stopText) {
		t.Errorf("the Stop gate did not block: %+v", l)
	}
	fr := forkResults(s.mock)
	if len(fr) != 1 || fr[0].IsError || !strings.Contains(fr[0].ToolResult, "references/procedures") || strings.Contains(fr[0].ToolResult, "bash original") {
		t.Errorf("the fork's scripts did not run the Go binary: %+v", fr)
	}
	for _, run := range s.mock.ForkRuns() {
		if !strings.Contains(run, "scripts/session-digest-read.sh") || !strings.Contains(run, "scripts/query-records.sh") {
			t.Errorf("the fork did not run the bash original's script paths: %s", run)
		}
	}
	digests, _ := filepath.Glob(filepath.Join(b.dir, "turn-state", "digests", "*", "*"))
	if len(digests) == 0 {
		digests, _ = filepath.Glob(filepath.Join(b.dir, "turn-state", "digests", "*"))
	}
	checkDigests(t, s, digests)

	// Turn 2: the gate re-arms and the second fork replays digest 1.
	var r2 recorder
	s.turn("turn 2: again", nil,
		r2.step(bash("touch denied-2")),
		r2.step(skill("procedures:how-do-i", "again")),
		r2.step(Reply{Text: "done (turn 2)."}),
	)
	if l := r2.at(t, 1); !l.IsError || !strings.Contains(l.ToolResult, gateText) {
		t.Errorf("a new prompt did not re-arm the gate: %+v", l)
	}
	if fr := forkResults(s.mock); len(fr) != 2 || !strings.Contains(fr[1].ToolResult, "==> prior /how-do-i digest 1 <==") {
		t.Errorf("the second fork did not replay digest 1: %+v", fr)
	}

	// Every hook call was ours, each of the six ran; no bash original started.
	ran := map[string]bool{}
	for _, c := range s.captures() {
		ran[c.Label] = true
		if !slices.Contains(hookNames(), c.Label) {
			t.Errorf("a hook that is not ours ran: %s", c.Label)
		}
		if want := map[bool]string{true: "2", false: "0"}[c.Label == "PostToolUse.enforce-frontmatter"]; c.RC != want {
			t.Errorf("hook %s exited %s, want %s: %s", c.Label, c.RC, want, c.Stderr)
		}
	}
	for _, h := range hookNames() {
		if !ran[h] {
			t.Errorf("hook %s never ran", h)
		}
	}
	if data, err := os.ReadFile(bashLog); err == nil {
		t.Errorf("bash original scripts started:\n%s", data)
	}
	if data, err := os.ReadFile(filepath.Join(b.dir, "gate-failopen.jsonl")); err == nil && len(data) > 0 {
		t.Errorf("fail-open rows:\n%s", data)
	}
}

// lookIn is exec.LookPath on one directory.
func lookIn(dir, prog string) (string, error) {
	p := filepath.Join(dir, prog)
	if _, err := os.Stat(p); err != nil {
		return "", err
	}
	return exec.LookPath(p)
}
