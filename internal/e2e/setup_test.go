package e2e

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/bundle"
	"github.com/procedures-go/procedures/internal/wiring"
)

// setupErr says why the suite cannot run here (no namespace, no CLI).
var setupErr error

// workDir holds everything the suite writes; its name has a space (row 7).
var workDir string

func enabled() bool { return os.Getenv("PROCEDURES_E2E") == "1" }

func TestMain(m *testing.M) {
	if !enabled() {
		os.Exit(m.Run()) // every TestE2E… skips at once
	}
	if os.Getenv("PROCEDURES_E2E_NETNS") != "1" {
		// Re-run this test binary inside a network namespace with only
		// loopback, so the mock and every claude share it.
		if err := exec.Command("unshare", "-n", "true").Run(); err != nil {
			setupErr = fmt.Errorf("no network namespace (unshare -n: %v); the suite needs root or user namespaces", err)
			os.Exit(m.Run())
		}
		cmd := exec.Command("unshare", append([]string{"-n", "--", os.Args[0]}, os.Args[1:]...)...)
		cmd.Env = append(os.Environ(), "PROCEDURES_E2E_NETNS=1")
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				os.Exit(ee.ExitCode())
			}
			fmt.Fprintln(os.Stderr, "e2e:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	setupErr = inNamespace()
	code := m.Run()
	if workDir != "" && os.Getenv("PROCEDURES_E2E_KEEP") == "" {
		os.RemoveAll(workDir)
	} else if workDir != "" {
		fmt.Fprintln(os.Stderr, "e2e: kept", workDir)
	}
	os.Exit(code)
}

// inNamespace brings lo up and checks that it is the only interface.
func inNamespace() error {
	if out, err := exec.Command("ip", "link", "set", "lo", "up").CombinedOutput(); err != nil {
		return fmt.Errorf("ip link set lo up: %v: %s", err, out)
	}
	ifs, err := net.Interfaces()
	if err != nil {
		return err
	}
	for _, i := range ifs {
		if i.Flags&net.FlagLoopback == 0 {
			return fmt.Errorf("network namespace has interface %s besides loopback", i.Name)
		}
	}
	return nil
}

// need skips the test unless the suite is asked for, and fails it (in CI)
// or skips it with the reason (locally) when the suite cannot run.
func need(t *testing.T) {
	t.Helper()
	if !enabled() {
		t.Skip("end-to-end suite: set PROCEDURES_E2E=1 to run it")
	}
	err := setupErr
	if err == nil {
		_, err = claudeBin()
	}
	if err == nil {
		_, err = baseBundle()
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("end-to-end suite cannot run (CI=true, so this fails): %v", err)
		}
		t.Skipf("end-to-end suite cannot run: %v", err)
	}
}

var claudeOnce struct {
	sync.Once
	bin string
	err error
}

// claudeBin is CLAUDE_BIN or the cached install of scripts/install-claude.
func claudeBin() (string, error) {
	claudeOnce.Do(func() {
		bin := os.Getenv("CLAUDE_BIN")
		if bin == "" {
			cache := os.Getenv("XDG_CACHE_HOME")
			if cache == "" {
				cache = filepath.Join(os.Getenv("HOME"), ".cache")
			}
			bin = filepath.Join(cache, "procedures-e2e", "claude-code-"+ClaudeVersion, "node_modules", ".bin", "claude")
		}
		out, err := exec.Command(bin, "--version").Output()
		if err != nil {
			claudeOnce.err = fmt.Errorf("no Claude Code CLI at %s (%v): run scripts/install-claude or set CLAUDE_BIN", bin, err)
			return
		}
		if !strings.Contains(string(out), ClaudeVersion+" (Claude Code)") {
			claudeOnce.err = fmt.Errorf("%s --version printed %q, want %s (Claude Code)", bin, bytes.TrimSpace(out), ClaudeVersion)
			return
		}
		claudeOnce.bin = bin
	})
	return claudeOnce.bin, claudeOnce.err
}

// ClaudeVersion is the pinned CLI (scripts/install-claude installs it).
const ClaudeVersion = "2.1.332"

var bundleOnce struct {
	sync.Once
	dir string
	err error
}

// baseBundle is the bundle (built for the host, or PROCEDURES_E2E_BUNDLE
// copied) with the two test skills, at a path with a space. Tests copy it
// before changing it.
func baseBundle() (string, error) {
	bundleOnce.Do(func() {
		dir, err := os.MkdirTemp("", "procedures e2e ")
		if err != nil {
			bundleOnce.err = err
			return
		}
		workDir = dir
		plugin := filepath.Join(dir, "plugin dir", "procedures")
		if from := os.Getenv("PROCEDURES_E2E_BUNDLE"); from != "" {
			err = copyTree(from, plugin)
		} else {
			start := time.Now()
			defer func() { fmt.Fprintf(os.Stderr, "e2e: bundle built in %v\n", time.Since(start).Round(time.Millisecond)) }()
			err = bundle.Write(bundle.Options{Dir: plugin, Platforms: []bundle.Platform{bundle.Host()}, Version: "0.0.0-e2e"})
		}
		if err == nil {
			err = writeSkills(plugin)
		}
		bundleOnce.dir, bundleOnce.err = plugin, err
	})
	return bundleOnce.dir, bundleOnce.err
}

func copyTree(from, to string) error {
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	if out, err := exec.Command("cp", "-a", from, to).CombinedOutput(); err != nil {
		return fmt.Errorf("cp -a %s %s: %v: %s", from, to, err, out)
	}
	return nil
}

// howDoISkill forks; its subagent (the mock) runs the E2E-RUN line.
const howDoISkill = `---
name: how-do-i
description: Look up the procedure for a task before acting on it.
context: fork
---
` + ForkMarker + `
Warm start: run this command line first and keep what it prints.
E2E-RUN: sh "${CLAUDE_SKILL_DIR}/../../bin/procedures" session-digest-read --read "${CLAUDE_SESSION_ID}"
Then answer with GOAL, GOVERNS, COMMANDS, TRAPS and WARM-READ.
`

const amIDoneSkill = `---
name: am-i-done
description: Review the turn's work against its evidence before stopping.
---
Review the report you were given: every claim must be paired with the command run and its output.
`

func writeSkills(plugin string) error {
	for name, text := range map[string]string{"how-do-i": howDoISkill, "am-i-done": amIDoneSkill} {
		d := filepath.Join(plugin, "skills", name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(d, "SKILL.md"), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// captureScript saves a hook's stdin under $E2E_CAPTURE_DIR and runs the
// hook on it; E2E_HOOK_ENTRYPOINT, when set, replaces the
// CLAUDE_CODE_ENTRYPOINT that claude -p forces (sdk-cli exempts the Stop gate).
// It is started as the hook line it wraps starts the launcher: run
// (sh e2e-capture <label> <command line...>, which it runs), or sourced in
// Claude Code's shell (set -- e2e-capture <label> <launcher> <hook>; . "$1"),
// when it sources the launcher in a subshell of that shell with the
// positional parameters the hook line gave it.
const captureScript = `#!/bin/sh
case ${0##*/} in
e2e-capture) sourced= ;;
*) sourced=1 && shift ;;
esac
label=$1
shift
f=$E2E_CAPTURE_DIR/$label.$$.json
cat >"$f"
if [ -n "${E2E_HOOK_ENTRYPOINT:-}" ]; then
	CLAUDE_CODE_ENTRYPOINT=$E2E_HOOK_ENTRYPOINT
	export CLAUDE_CODE_ENTRYPOINT
fi
if [ -n "$sourced" ]; then
	(. "$1") <"$f" >"$f.out" 2>"$f.err"
else
	"$@" <"$f" >"$f.out" 2>"$f.err"
fi
rc=$?
echo "$rc" >"$f.rc"
cat "$f.out"
cat "$f.err" >&2
exit "$rc"
`

// session is one sandboxed project for a run of claude sessions.
type session struct {
	t       *testing.T
	plugin  string
	dir     string // the sandbox: home, project, state, logs
	project string
	capture string
	id      string
	mock    *Mock
	env     []string
	turns   int
	// installed: the plugin is installed in the sandbox's Claude Code
	// (claude plugin install), so no --plugin-dir is passed.
	installed bool
}

// newSession copies the base bundle, lets edit change the copy, wraps its
// hooks with the capture script (unless raw), and starts a mock.
func newSession(t *testing.T, edit func(plugin string), wrap bool) *session {
	t.Helper()
	need(t)
	base, _ := baseBundle()
	sb, err := os.MkdirTemp(workDir, strings.ReplaceAll(t.Name(), "/", "_")+" sandbox ")
	if err != nil {
		t.Fatal(err)
	}
	s := &session{t: t, dir: sb, plugin: filepath.Join(sb, "plugin copy", "procedures"),
		project: filepath.Join(sb, "project"), capture: filepath.Join(sb, "capture")}
	if err := copyTree(base, s.plugin); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(s.plugin)
	}
	if wrap {
		if err := os.WriteFile(filepath.Join(s.plugin, "e2e-capture"), []byte(captureScript), 0o755); err != nil {
			t.Fatal(err)
		}
		wrapHooks(t, s.plugin)
	}
	for _, d := range []string{s.project, s.capture, filepath.Join(sb, "home")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s.mock, err = NewMock()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.mock.Close)
	s.id = uuid()
	home := filepath.Join(sb, "home")
	s.env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"USER=root",
		"TMPDIR=" + os.TempDir(),
		"ANTHROPIC_BASE_URL=" + s.mock.URL,
		"ANTHROPIC_API_KEY=sk-ant-e2e-dummy",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL=1",
		"TURN_STATE_DIR=" + filepath.Join(sb, "turn-state"),
		"GATE_FAILOPEN_LOG=" + filepath.Join(sb, "gate-failopen.jsonl"),
		"GATE_ESCAPE_LOG=" + filepath.Join(sb, "gate-escape.jsonl"),
		"KNOWLEDGE_ROOT=" + filepath.Join(s.project, "kb"),
		"E2E_CAPTURE_DIR=" + s.capture,
	}
	return s
}

// wrapHooks puts the capture script in front of every hook command: a line
// that sources the launcher (set -- <launcher> <hook>; . "$1") sources the
// capture script the same way, any other line runs it.
func wrapHooks(t *testing.T, plugin string) {
	t.Helper()
	path := filepath.Join(plugin, "hooks", "hooks.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]map[string][]map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for event, groups := range doc["hooks"] {
		for _, g := range groups {
			hs, _ := g["hooks"].([]any)
			for _, h := range hs {
				h := h.(map[string]any)
				cmd, _ := h["command"].(string)
				words, dot := strings.CutSuffix(cmd, `; . "$1"`)
				words, set := strings.CutPrefix(words, "set -- ")
				sourced := dot && set
				fields := strings.Fields(words)
				label := event + "." + fields[len(fields)-1]
				if sourced {
					h["command"] = `set -- "${CLAUDE_PLUGIN_ROOT}/e2e-capture" ` + label + " " + words + `; . "$1"`
				} else {
					h["command"] = `sh "${CLAUDE_PLUGIN_ROOT}/e2e-capture" ` + label + " " + cmd
				}
			}
		}
	}
	out, _ := json.MarshalIndent(doc, "", "  ")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

func uuid() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// turn runs one headless turn (the first creates the session, later ones
// resume it) with the mock playing steps, and returns the stream-json output.
func (s *session) turn(prompt string, extraEnv []string, steps ...Step) string {
	s.t.Helper()
	bin, _ := claudeBin()
	s.mock.Script(steps...)
	args := []string{"-p", prompt, "--plugin-dir", s.plugin, "--output-format", "stream-json", "--verbose",
		"--allowedTools", "Bash", "Write", "Edit", "Skill"}
	if s.installed {
		args = append(args[:2:2], args[4:]...)
	}
	if s.turns == 0 {
		args = append(args, "--session-id", s.id)
	} else {
		args = append(args, "--resume", s.id)
	}
	s.turns++
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = s.project
	cmd.Env = append(append([]string(nil), s.env...), extraEnv...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	s.t.Logf("claude turn %d took %v", s.turns, time.Since(start).Round(time.Millisecond))
	if err != nil {
		s.t.Fatalf("claude %q: %v\nstderr:\n%s\nstdout:\n%s", prompt, err, stderr.String(), tail(stdout.String(), 4000))
	}
	s.dumpRequests()
	if errs := s.mock.Errors(); len(errs) > 0 {
		s.t.Fatalf("mock: %v", errs)
	}
	if n := s.mock.Remaining(); n > 0 {
		s.t.Fatalf("claude %q ended with %d scripted steps unused\nstdout:\n%s", prompt, n, tail(stdout.String(), 4000))
	}
	return stdout.String()
}

// dumpRequests writes every request body the mock got to requests.jsonl in
// the sandbox (kept with PROCEDURES_E2E_KEEP=1).
func (s *session) dumpRequests() {
	var b bytes.Buffer
	for _, r := range s.mock.Requests() {
		fmt.Fprintf(&b, "%s %s %s %s\n", r.At.Format(time.RFC3339Nano), r.Kind, r.Path, r.Body)
	}
	os.WriteFile(filepath.Join(s.dir, "requests.log"), b.Bytes(), 0o644)
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// Capture is one hook run seen by the capture script.
type Capture struct {
	Label   string // Event.command
	Payload map[string]any
	Raw     []byte
	RC      string
	Stdout  string
	Stderr  string
}

// captures lists the hook runs so far, in file-time order.
func (s *session) captures() []Capture {
	s.t.Helper()
	files, _ := filepath.Glob(filepath.Join(s.capture, "*.json"))
	type ent struct {
		c  Capture
		mt time.Time
	}
	var es []ent
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			s.t.Fatal(err)
		}
		var c Capture
		c.Raw = raw
		base := filepath.Base(f)
		c.Label = base[:strings.LastIndex(strings.TrimSuffix(base, ".json"), ".")]
		json.Unmarshal(raw, &c.Payload)
		rc, _ := os.ReadFile(f + ".rc")
		out, _ := os.ReadFile(f + ".out")
		errb, _ := os.ReadFile(f + ".err")
		c.RC, c.Stdout, c.Stderr = strings.TrimSpace(string(rc)), string(out), string(errb)
		fi, _ := os.Stat(f)
		es = append(es, ent{c, fi.ModTime()})
	}
	for i := 1; i < len(es); i++ { // insertion sort, stable
		for j := i; j > 0 && es[j].mt.Before(es[j-1].mt); j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
	var cs []Capture
	for _, e := range es {
		cs = append(cs, e.c)
	}
	allCaptures.add(s, cs)
	return cs
}

// allCaptures collects every session's captures for the fixture test.
var allCaptures captureSet

type captureSet struct {
	sync.Mutex
	bySession map[string][]Capture
	repl      map[string][][2]string
}

func (a *captureSet) add(s *session, cs []Capture) {
	a.Lock()
	defer a.Unlock()
	if a.bySession == nil {
		a.bySession = map[string][]Capture{}
		a.repl = map[string][][2]string{}
	}
	a.bySession[s.id] = cs
	a.repl[s.id] = [][2]string{{s.project, "/project"}, {s.plugin, "/plugin"},
		{filepath.Join(s.dir, "home"), "/home/user"}, {s.id, "00000000-0000-4000-8000-000000000000"}}
}

// hookNames are the wired hook commands.
func hookNames() []string {
	var ns []string
	for _, h := range wiring.Hooks() {
		ns = append(ns, h.Event+"."+h.Command)
	}
	return ns
}

var _ = runtime.GOOS
