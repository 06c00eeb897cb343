package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/bundle"
	"github.com/procedures-go/procedures/internal/wiring"
)

func bash(cmd string) Reply {
	return Reply{Tool: "Bash", Input: map[string]any{"command": cmd, "description": "e2e step"}}
}

func skill(name, args string) Reply {
	return Reply{Tool: "Skill", Input: map[string]any{"skill": name, "args": args}}
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// recorder keeps what each scripted step saw.
type recorder struct{ seen []Last }

func (r *recorder) step(reply Reply) Step {
	return func(l Last) Reply { r.seen = append(r.seen, l); return reply }
}

func (r *recorder) at(t *testing.T, i int) Last {
	t.Helper()
	if i >= len(r.seen) {
		t.Fatalf("step %d never ran (%d ran)", i, len(r.seen))
	}
	return r.seen[i]
}

const gateText = "HOW-DO-I-GATE: this turn has not run Skill(procedures:how-do-i)."

// forkResults are the tool results the forks' models saw (their digest-read).
func forkResults(m *Mock) []Last {
	var ls []Last
	for _, r := range m.Requests() {
		if r.Kind == "fork" && r.Last.HasResult {
			ls = append(ls, r.Last)
		}
	}
	return ls
}

// Rows 2, 3, 4 and 7: the how-do-i gate denies Bash until the forked skill
// has run, the fork's own Bash runs, its result is stored as a digest, a new
// prompt re-arms the gate and the second fork replays the first digest; the
// plugin sits at a path with a space.
func TestE2EGatesAndDigest(t *testing.T) {
	s := newSession(t, nil, true)
	var r recorder
	s.turn("turn 1: create the marker files", nil,
		r.step(bash("touch denied-1")),
		r.step(skill("procedures:how-do-i", "create marker files (turn 1)")),
		r.step(bash("touch allowed-1")),
		r.step(Reply{Tool: "Write", Input: map[string]any{"file_path": filepath.Join(s.project, "notes.txt"), "content": "out of any store\n"}}),
		r.step(Reply{Text: "done (turn 1)."}),
	)
	// Row 2.
	if l := r.at(t, 1); !l.IsError || !strings.Contains(l.ToolResult, "PreToolUse:Bash hook error") || !strings.Contains(l.ToolResult, gateText) {
		t.Errorf("row 2: the denied Bash's tool_result is not an is_error result with the gate's text: %+v", l)
	}
	if exists(filepath.Join(s.project, "denied-1")) {
		t.Error("row 2: the denied command ran")
	}
	// Row 3.
	if l := r.at(t, 2); l.IsError || !strings.Contains(l.ToolResult, "GOAL: e2e") {
		t.Errorf("row 3: the forked skill's result did not come back: %+v", l)
	}
	if l := r.at(t, 3); l.IsError || !exists(filepath.Join(s.project, "allowed-1")) {
		t.Errorf("row 3: Bash after the skill was not allowed: %+v", l)
	}
	fr := forkResults(s.mock)
	if len(fr) != 1 || fr[0].IsError {
		t.Fatalf("row 3: the fork's Bash was not allowed: %+v", fr)
	}
	var forkBash int
	for _, c := range s.captures() {
		if c.Label == "PreToolUse.how-do-i-gate" && c.Payload["agent_id"] != nil {
			forkBash++
			if c.Stdout != "" || c.RC != "0" {
				t.Errorf("row 3: the gate answered the fork's Bash: rc %s %q", c.RC, c.Stdout)
			}
		}
	}
	if forkBash == 0 {
		t.Error("row 3: no PreToolUse payload carried agent_id")
	}
	// Row 4: the digest, 0600 in 0700, nothing logged fail-open, ${CLAUDE_SKILL_DIR} expanded.
	digests, _ := filepath.Glob(filepath.Join(s.dir, "turn-state", "digests", "*", "*"))
	if len(digests) == 0 {
		digests, _ = filepath.Glob(filepath.Join(s.dir, "turn-state", "digests", "*"))
	}
	checkDigests(t, s, digests)
	for _, run := range s.mock.ForkRuns() {
		if strings.Contains(run, "${") || !strings.Contains(run, s.plugin+"/skills/how-do-i") || !strings.Contains(run, s.id) {
			t.Errorf("row 4: the fork's prompt did not expand ${CLAUDE_SKILL_DIR}/${CLAUDE_SESSION_ID}: %s", run)
		}
	}

	// Turn 2: a new prompt re-arms the gate; the second fork replays digest 1.
	var r2 recorder
	s.turn("turn 2: and again", nil,
		r2.step(bash("touch denied-2")),
		r2.step(skill("procedures:how-do-i", "create marker files (turn 2)")),
		r2.step(Reply{Text: "done (turn 2)."}),
	)
	if l := r2.at(t, 1); !l.IsError || !strings.Contains(l.ToolResult, gateText) {
		t.Errorf("row 3: a new prompt did not re-arm the gate: %+v", l)
	}
	if exists(filepath.Join(s.project, "denied-2")) {
		t.Error("row 3: the re-armed gate's denied command ran")
	}
	fr = forkResults(s.mock)
	if len(fr) != 2 || !strings.Contains(fr[1].ToolResult, "==> prior /how-do-i digest 1 <==") {
		t.Errorf("row 4: the second fork's digest-read did not replay digest 1: %+v", fr)
	}
	checkRow7(t, s)
}

func checkDigests(t *testing.T, s *session, digests []string) {
	t.Helper()
	var found bool
	for _, d := range digests {
		fi, err := os.Lstat(d)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		found = true
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("row 4: digest %s has mode %v, want 0600", d, fi.Mode().Perm())
		}
		di, _ := os.Stat(filepath.Dir(d))
		if di.Mode().Perm() != 0o700 {
			t.Errorf("row 4: digest directory %s has mode %v, want 0700", filepath.Dir(d), di.Mode().Perm())
		}
		data, _ := os.ReadFile(d)
		if !strings.Contains(string(data), "GOAL: e2e") {
			t.Errorf("row 4: digest %s does not hold the fork's result: %q", d, data)
		}
	}
	if !found {
		t.Errorf("row 4: no digest stored under %s", filepath.Join(s.dir, "turn-state", "digests"))
	}
	if data, err := os.ReadFile(filepath.Join(s.dir, "gate-failopen.jsonl")); err == nil && len(data) > 0 {
		t.Errorf("row 4: fail-open rows were logged:\n%s", data)
	}
}

// checkRow7: the plugin path has a space and every wired hook ran and exited 0.
func checkRow7(t *testing.T, s *session) {
	t.Helper()
	if !strings.Contains(s.plugin, " ") {
		t.Fatalf("row 7: plugin path %q has no space", s.plugin)
	}
	ran := map[string]bool{}
	for _, c := range s.captures() {
		ran[c.Label] = true
		if c.RC != "0" {
			t.Errorf("row 7: hook %s exited %s: %s", c.Label, c.RC, c.Stderr)
		}
	}
	for _, h := range hookNames() {
		if !ran[h] {
			t.Errorf("row 7: hook %s never ran", h)
		}
	}
}

// Row 5: a Write of a record with missing keys makes enforce-frontmatter
// exit 2 and its FRONTMATTER: block reaches the model.
func TestE2EFrontmatter(t *testing.T) {
	s := newSession(t, nil, true)
	var r recorder
	rec := filepath.Join(s.project, "kb", "references", "procedures", "e2e", "PROCEDURE.md")
	if err := os.MkdirAll(filepath.Dir(rec), 0o755); err != nil {
		t.Fatal(err)
	}
	s.turn("write a procedure record", nil,
		r.step(skill("procedures:how-do-i", "write a record")),
		r.step(Reply{Tool: "Write", Input: map[string]any{"file_path": rec, "content": "---\nname: e2e\n---\nbody\n"}}),
		r.step(Reply{Text: "written."}),
	)
	if l := r.at(t, 2); !strings.Contains(l.Text, "FRONTMATTER: references/procedures/e2e/PROCEDURE.md violates") {
		t.Errorf("row 5: the FRONTMATTER: block did not reach the model: %+v", l)
	}
	var ran bool
	for _, c := range s.captures() {
		if c.Label == "PostToolUse.enforce-frontmatter" {
			ran = true
			if c.RC != "2" || !strings.HasPrefix(c.Stderr, "FRONTMATTER: ") {
				t.Errorf("row 5: enforce-frontmatter exited %s with %q, want 2 and a FRONTMATTER: block", c.RC, c.Stderr)
			}
		}
	}
	if !ran {
		t.Error("row 5: enforce-frontmatter never ran")
	}
}

const stopText = "AM-I-DONE: this turn used tools, and the work has not been reviewed."

// Row 6: the Stop gate blocks an un-reviewed turn with its reason; after the
// agent runs am-i-done the next Stop (stop_hook_active: true) releases; a
// text-only turn releases. claude -p forces CLAUDE_CODE_ENTRYPOINT=sdk-cli
// (exempt), so the capture wrapper sets it to cli for the hooks.
func TestE2EStopGate(t *testing.T) {
	s := newSession(t, nil, true)
	cli := []string{"E2E_HOOK_ENTRYPOINT=cli"}
	var r recorder
	s.turn("do some work", cli,
		r.step(skill("procedures:how-do-i", "do some work")),
		r.step(bash("touch worked")),
		r.step(Reply{Text: "done, unreviewed."}),
		r.step(skill("procedures:am-i-done", "touch worked: ran `touch worked`, exit 0")),
		r.step(Reply{Text: "reviewed and done."}),
	)
	if l := r.at(t, 3); !strings.Contains(l.Text, stopText) {
		t.Errorf("row 6: the Stop gate's reason did not reach the model: %+v", l)
	}
	var stops []Capture
	for _, c := range s.captures() {
		if c.Label == "Stop.am-i-done-gate" {
			stops = append(stops, c)
		}
	}
	if len(stops) != 2 {
		t.Fatalf("row 6: %d Stop hooks ran, want 2", len(stops))
	}
	if stops[0].Payload["stop_hook_active"] != false || !strings.Contains(stops[0].Stdout, `"decision":"block"`) {
		t.Errorf("row 6: the first Stop was not blocked: %v %q", stops[0].Payload["stop_hook_active"], stops[0].Stdout)
	}
	if stops[1].Payload["stop_hook_active"] != true || stops[1].Stdout != "" {
		t.Errorf("row 6: the Stop after am-i-done did not release: %v %q", stops[1].Payload["stop_hook_active"], stops[1].Stdout)
	}
	// A text-only turn releases: one main request, no block.
	var r2 recorder
	s.turn("just say hello", cli, r2.step(Reply{Text: "hello."}))
	if len(r2.seen) != 1 {
		t.Errorf("row 6: a text-only turn was blocked (%d model calls)", len(r2.seen))
	}
	cs := s.captures()
	if last := cs[len(cs)-1]; last.Label != "Stop.am-i-done-gate" || last.Stdout != "" {
		t.Errorf("row 6: the text-only turn's Stop did not release: %s %q", last.Label, last.Stdout)
	}
}

// Row 8: with a skill missing the gates release and record skill-unresolvable.
func TestE2ESkillMissing(t *testing.T) {
	s := newSession(t, func(plugin string) {
		os.RemoveAll(filepath.Join(plugin, "skills", "how-do-i"))
		os.RemoveAll(filepath.Join(plugin, "skills", "am-i-done"))
	}, true)
	var r recorder
	s.turn("work without skills", []string{"E2E_HOOK_ENTRYPOINT=cli"},
		r.step(bash("touch released")),
		r.step(Reply{Text: "done."}),
	)
	if l := r.at(t, 1); l.IsError || !exists(filepath.Join(s.project, "released")) {
		t.Errorf("row 8: the how-do-i gate did not release with its skill missing: %+v", l)
	}
	data, _ := os.ReadFile(filepath.Join(s.dir, "gate-failopen.jsonl"))
	for _, want := range []string{`"how-do-i"`, `"am-i-done"`} {
		var ok bool
		for _, line := range strings.Split(string(data), "\n") {
			ok = ok || strings.Contains(line, "skill-unresolvable") && strings.Contains(line, want)
		}
		if !ok {
			t.Errorf("row 8: no skill-unresolvable row for %s in the fail-open log:\n%s", want, data)
		}
	}
}

// Row 9: docs/bundle.md's exec form (binaries hard-linked into bin/, "args": [])
// works in the CLI, and procedures doctor accepts it.
func TestE2EExecForm(t *testing.T) {
	exe := "procedures"
	s := newSession(t, func(plugin string) {
		bin := filepath.Join(plugin, "bin")
		host := filepath.Join(bin, runtime.GOOS+"-"+runtime.GOARCH, exe)
		type handler struct {
			Type    string   `json:"type"`
			Command string   `json:"command"`
			Args    []string `json:"args"`
		}
		type group struct {
			Matcher string    `json:"matcher,omitempty"`
			Hooks   []handler `json:"hooks"`
		}
		doc := map[string]map[string][]group{"hooks": {}}
		for _, h := range wiring.Hooks() {
			if err := os.Link(host, filepath.Join(bin, h.Command)); err != nil && !os.IsExist(err) {
				t.Fatal(err)
			}
			gs := doc["hooks"][h.Event]
			hd := handler{"command", "${CLAUDE_PLUGIN_ROOT}/bin/" + h.Command, []string{}}
			if n := len(gs); n > 0 && gs[n-1].Matcher == h.Matcher {
				gs[n-1].Hooks = append(gs[n-1].Hooks, hd)
			} else {
				gs = append(gs, group{h.Matcher, []handler{hd}})
			}
			doc["hooks"][h.Event] = gs
		}
		out, _ := json.MarshalIndent(doc, "", "  ")
		if err := os.WriteFile(filepath.Join(plugin, "hooks", "hooks.json"), out, 0o644); err != nil {
			t.Fatal(err)
		}
	}, false)
	denyThenRelease(t, s, "row 9", "exec form")
	cmd := exec.Command(filepath.Join(s.plugin, "bin", runtime.GOOS+"-"+runtime.GOARCH, exe), "doctor", "--plugin", s.plugin)
	cmd.Env = s.env
	out, err := cmd.CombinedOutput()
	if err != nil || strings.Contains(string(out), "FAIL") {
		t.Errorf("row 9: procedures doctor does not accept the exec form (%v):\n%s", err, out)
	}
}

// Row 10: the bundle's own hooks.json, unwrapped: each line sources the
// launcher in Claude Code's shell (set -- <launcher> <hook>; . "$1"), and
// the gate denies, then releases after the skill, and the fork's digest is
// stored.
func TestE2EBundleLines(t *testing.T) {
	s := newSession(t, nil, false)
	if os.Getenv("PROCEDURES_E2E_BUNDLE") == "" {
		data, err := os.ReadFile(filepath.Join(s.plugin, "hooks", "hooks.json"))
		if err != nil || !bytes.Equal(data, wiring.HooksJSON(bundle.HookCommand)) {
			t.Fatalf("row 10: hooks.json is not the bundle's (%v):\n%s", err, data)
		}
	}
	denyThenRelease(t, s, "row 10", "bundle lines")
}

// denyThenRelease runs one turn in s, named what: a Bash call the gate
// must deny, the how-do-i skill, a Bash call it must then let through;
// the skill's fork must leave a digest.
func denyThenRelease(t *testing.T, s *session, row, what string) {
	t.Helper()
	var r recorder
	s.turn(what, nil,
		r.step(bash("touch denied")),
		r.step(skill("procedures:how-do-i", what)),
		r.step(bash("touch allowed")),
		r.step(Reply{Text: "done."}),
	)
	if l := r.at(t, 1); !l.IsError || !strings.Contains(l.ToolResult, gateText) || exists(filepath.Join(s.project, "denied")) {
		t.Errorf("%s (%s): the gate did not deny: %+v", row, what, l)
	}
	if l := r.at(t, 3); l.IsError || !exists(filepath.Join(s.project, "allowed")) {
		t.Errorf("%s (%s): the gate did not release after the skill: %+v", row, what, l)
	}
	if digests, _ := filepath.Glob(filepath.Join(s.dir, "turn-state", "digests", "*")); len(digests) == 0 {
		t.Errorf("%s (%s): digest-record stored no digest", row, what)
	}
}

// Row 1: claude plugin validate passes with no warning.
func TestE2EPluginValidate(t *testing.T) {
	need(t)
	base, _ := baseBundle()
	bin, _ := claudeBin()
	cmd := exec.Command(bin, "plugin", "validate", base)
	cmd.Env = append(os.Environ(), "HOME="+workDir, "DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
	out, err := cmd.CombinedOutput()
	// The manifest's own findings come before "Provides:"; the plugin
	// directory's submission checks (README, LICENSE, icon) after it do not
	// change the result and are not this row.
	manifest, _, _ := strings.Cut(string(out), "\nProvides:")
	if err != nil || strings.Contains(strings.ToLower(manifest), "warning") || !strings.Contains(string(out), "Validation passed") {
		t.Errorf("row 1: claude plugin validate %s (%v):\n%s", base, err, manifest)
	}
}
