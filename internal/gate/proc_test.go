package gate_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/cli/hooktest"
	"github.com/procedures-go/procedures/internal/commands"
	"github.com/procedures-go/procedures/internal/gate"
	"github.com/procedures-go/procedures/internal/proctest"
	"github.com/procedures-go/procedures/internal/shellread"
	"github.com/procedures-go/procedures/internal/testcache"
)

// runHookEnv, set in a child's environment, makes the test binary run that
// command (or exit at once for "noop") instead of the tests: the hooks run
// as real processes without a go build.
const runHookEnv = "GATES_TEST_RUN_HOOK"

func TestMain(m *testing.M) {
	if name := os.Getenv(runHookEnv); name != "" {
		if name == "noop" {
			os.Exit(0)
		}
		c, ok := commands.Lookup(name)
		if !ok {
			fmt.Fprintln(os.Stderr, "no such command:", name)
			os.Exit(99)
		}
		code := c.Main(nil, os.Stdin, os.Stdout, os.Stderr, cli.OSEnv())
		if f := os.Getenv(hwmFileEnv); f != "" {
			writeHWM(f)
		}
		os.Exit(code)
	}
	os.Exit(guardRealHome(func() int { return testcache.Main(m) })) // the index too, in a cache of its own
}

// guardRealHome runs the tests and fails them if the real home's gate logs
// changed: every test here sets HOME, TURN_STATE_DIR and both logs to
// temporary paths (the default log is $HOME/.claude/gate-failopen.jsonl,
// so a suite that forgets leaks rows into a bystander's home).
func guardRealHome(run func() int) int {
	home, _ := os.UserHomeDir()
	snapshot := func() string {
		var b strings.Builder
		for _, f := range []string{"gate-failopen.jsonl", "gate-escape.jsonl"} {
			if fi, err := os.Stat(filepath.Join(home, ".claude", f)); err == nil {
				fmt.Fprintf(&b, "%s %d %v;", f, fi.Size(), fi.ModTime())
			}
		}
		return b.String()
	}
	before := snapshot()
	code := run()
	if after := snapshot(); after != before {
		fmt.Fprintf(os.Stderr, "the real home's gate logs changed: %q -> %q\n", before, after)
		return 1
	}
	return code
}

// sandbox is a temporary root holding the turn-state directory, HOME, both
// logs and an installed plugin tree.
type sandbox struct {
	root string
	env  []string
}

func newSandbox(t testing.TB) *sandbox {
	root, vars := hooktest.Sandbox(t)
	s := &sandbox{root: root}
	for k, v := range vars {
		s.env = append(s.env, k+"="+v)
	}
	return s
}

func (s *sandbox) envMap() cli.Env {
	m := map[string]string{}
	for _, kv := range s.env {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return cli.MapEnv(m)
}

// command returns the hook as a process of the test binary.
func (s *sandbox) command(tb testing.TB, name string, stdin []byte) *exec.Cmd {
	cmd := proctest.Self(tb, append([]string{"PATH=" + os.Getenv("PATH")}, s.env...), runHookEnv+"="+name)
	cmd.Dir = s.root
	cmd.Stdin = bytes.NewReader(stdin)
	return cmd
}

type result struct {
	stdout, stderr string
	code           int
}

func (s *sandbox) run(t testing.TB, name string, stdin []byte) result {
	cmd := s.command(t, name, stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return result{out.String(), errb.String(), code}
}

var hooks = []string{"turn-state-reset", "turn-state-record", "how-do-i-gate", "am-i-done-gate"}

// checkLogs: every line of both logs is a JSON object with exactly the
// documented keys, in order.
func checkLogs(t testing.TB, s *sandbox) {
	t.Helper()
	for log, keys := range map[string]string{"failopen.jsonl": "ts gate why session_id", "escape.jsonl": "ts gate released_by"} {
		data, err := os.ReadFile(filepath.Join(s.root, log))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			dec := json.NewDecoder(strings.NewReader(line))
			var got []string
			if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
				t.Fatalf("%s: not an object: %q", log, line)
			}
			for dec.More() {
				k, _ := dec.Token()
				var v string
				if err := dec.Decode(&v); err != nil {
					t.Fatalf("%s: value of %v is not a string: %q", log, k, line)
				}
				got = append(got, k.(string))
			}
			if strings.Join(got, " ") != keys {
				t.Fatalf("%s: keys %v, want %s: %q", log, got, keys, line)
			}
		}
	}
}

// checkConfined: nothing but the turn-state directory's files and the two
// logs appeared in the sandbox.
func checkConfined(t testing.TB, s *sandbox) {
	t.Helper()
	filepath.WalkDir(s.root, func(path string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(s.root, path)
		switch {
		case rel == "." || rel == "tsd" || rel == "home" || strings.HasPrefix(rel, "plugin"):
		case rel == "failopen.jsonl" || rel == "escape.jsonl":
		case filepath.Dir(rel) == "tsd" && !d.IsDir():
			if fi, _ := d.Info(); fi.Size() != 0 {
				t.Errorf("marker %s holds %d bytes", rel, fi.Size())
			}
		default:
			t.Errorf("written outside the turn-state directory and the logs: %s", rel)
		}
		return nil
	})
}

// Bad input: every hook exits 0, prints nothing on stderr, writes only in
// the turn-state directory and the two logs, and every log line parses with
// exactly its keys.
func TestHooksBadInput(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	random := make([]byte, 4096)
	rng.Read(random)
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	deepObj := strings.Repeat(`{"a":`, 100000) + "1" + strings.Repeat("}", 100000)
	inputs := map[string][]byte{
		"random":        random,
		"100MB":         bytes.Repeat([]byte(`{"session_id":"S","tool_name":"Edit"}`), 100<<20/37),
		"deep array":    []byte(deep),
		"deep object":   []byte(deepObj),
		"NUL":           []byte("{\"session_id\":\"a\x00b\",\"tool_name\":\"Edit\"}\x00"),
		"NUL escape":    []byte(`{"session_id":"a\u0000b","tool_name":"Edit","hook_event_name":"Stop"}`),
		"invalid UTF-8": []byte("{\"session_id\":\"\xff\xfe\",\"tool_name\":\"Skill\",\"tool_input\":{\"skill\":\"how-do-i\"}}"),
		"traversal":     []byte(`{"session_id":"../../../../tmp/evil","tool_name":"Skill","tool_input":{"skill":"how-do-i"},"hook_event_name":"Stop"}`),
		"slash":         []byte(`{"session_id":"/etc/passwd","tool_name":"Edit","hook_event_name":"Stop"}`),
		"newlines":      []byte(`{"session_id":"x\n{\"injected\":1}\ny","tool_name":"Edit","hook_event_name":"Stop"}`),
		"forged":        []byte(`{"session_id":"x\",\"injected\":\"yes","tool_name":"Edit","hook_event_name":"Stop"}`),
		"empty":         nil,
	}
	s := newSandbox(t)
	for name, in := range inputs {
		for _, hook := range hooks {
			r := s.run(t, hook, in)
			if r.code != 0 || r.stderr != "" {
				t.Errorf("%s on %s: exit %d, stderr %q", hook, name, r.code, r.stderr)
			}
			if r.stdout != "" && r.stdout != string(gate.Deny(gate.DenyReason)) && r.stdout != string(gate.Block(gate.BlockReason)) {
				t.Errorf("%s on %s: stdout %q", hook, name, r.stdout)
			}
		}
	}
	checkConfined(t, s)
	checkLogs(t, s)
	if _, err := os.Stat("/tmp/evil.turn"); err == nil {
		t.Error("a session id named a file outside the turn-state directory")
	}
}

// 100 concurrent turn-state-record and how-do-i-gate processes on one
// session while turn-state-reset runs: nothing crashes, every marker ends up
// present or absent (an empty regular file, never half-made), every gate
// output is empty or the exact deny line.
func TestHooksConcurrent(t *testing.T) {
	s := newSandbox(t)
	sid := "concurrent"
	payload := func(js string) []byte { return []byte(strings.ReplaceAll(js, "SID", sid)) }
	skills := [][]byte{
		payload(`{"session_id":"SID","tool_name":"Skill","tool_input":{"skill":"procedures:how-do-i"}}`),
		payload(`{"session_id":"SID","tool_name":"Skill","tool_input":{"skill":"am-i-done"}}`),
	}
	edit := payload(`{"session_id":"SID","tool_name":"Edit","tool_input":{"file_path":"/tmp/x"}}`)
	prompt := payload(`{"session_id":"SID","prompt":"go"}`)
	deny := string(gate.Deny(gate.DenyReason))
	s.run(t, "turn-state-reset", prompt)

	var wg sync.WaitGroup
	errs := make(chan string, 300)
	check := func(name string, in []byte) {
		r := s.run(t, name, in)
		if r.code != 0 || r.stderr != "" || (r.stdout != "" && r.stdout != deny) {
			errs <- fmt.Sprintf("%s: exit %d, stdout %q, stderr %q", name, r.code, r.stdout, r.stderr)
		}
	}
	stop := make(chan struct{})
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				check("turn-state-reset", prompt)
			}
		}
	})
	var workers sync.WaitGroup
	for i := range 100 {
		workers.Go(func() { check("turn-state-record", skills[i%2]) })
		workers.Go(func() { check("how-do-i-gate", edit) })
	}
	workers.Wait()
	close(stop)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	entries, _ := os.ReadDir(filepath.Join(s.root, "tsd"))
	allowed := map[string]bool{sid + ".turn": true, sid + ".how_do_i": true, sid + ".am_i_done": true}
	for _, e := range entries {
		if !allowed[e.Name()] || !e.Type().IsRegular() {
			t.Errorf("unexpected entry %s (%v)", e.Name(), e.Type())
		}
	}
	if _, err := os.Stat(filepath.Join(s.root, "tsd", sid+".turn")); err != nil {
		t.Error("the turn marker is gone")
	}
	checkConfined(t, s)
	checkLogs(t, s)
	// The record that comes after the last reset holds.
	s.run(t, "turn-state-record", skills[0])
	if r := s.run(t, "how-do-i-gate", edit); r.stdout != "" {
		t.Errorf("after the last record the gate still denies")
	}
}

// With no PATH at all every hook
// decides exactly as with one; no-jq is never recorded.
func TestHooksWithoutPATH(t *testing.T) {
	s := newSandbox(t)
	env := s.envMap()
	run := func(name string, in string) string {
		c, _ := commands.Lookup(name)
		var out, errb bytes.Buffer
		if code := c.Main(nil, strings.NewReader(in), &out, &errb, env); code != 0 || errb.Len() > 0 {
			t.Fatalf("%s: exit %d, stderr %q", name, code, errb.String())
		}
		return out.String()
	}
	if _, set := env("PATH"); set {
		t.Fatal("the environment has a PATH")
	}
	run("turn-state-reset", `{"session_id":"P"}`)
	if run("how-do-i-gate", `{"session_id":"P","tool_name":"Edit"}`) == "" {
		t.Error("the gate did not deny without PATH")
	}
	run("turn-state-record", `{"session_id":"P","tool_name":"Skill","tool_input":{"skill":"how-do-i"}}`)
	if run("how-do-i-gate", `{"session_id":"P","tool_name":"Edit"}`) != "" {
		t.Error("the record hook did not mark without PATH")
	}
	os.MkdirAll(filepath.Join(s.root, "home/.claude/projects/p"), 0o777)
	os.WriteFile(filepath.Join(s.root, "home/.claude/projects/p/P.jsonl"),
		[]byte(`{"type":"assistant","message":{"content":[{"type":"tool_use"}]}}`+"\n"), 0o666)
	if run("am-i-done-gate", `{"session_id":"P","hook_event_name":"Stop"}`) == "" {
		t.Error("the Stop gate did not block without PATH")
	}
	if b, _ := os.ReadFile(filepath.Join(s.root, "failopen.jsonl")); bytes.Contains(b, []byte("no-jq")) {
		t.Error("no-jq recorded")
	}
}

// An internal failure while evaluating a gate
// never produces a deny; it releases (exit 0, no stdout) and records
// internal-error, a member of the Go logger's closed set (the bash logger
// quarantined it as unrecognized:internal-error).
func TestRecoverReleases(t *testing.T) {
	// A gate whose escape log cannot be written is still
	// armed: the switch is read from the environment alone.
	{
		s := newSandbox(t)
		env := s.envMap()
		broken := cli.Env(func(k string) (string, bool) {
			if k == "GATE_ESCAPE_LOG" {
				return filepath.Join(s.root, "no", "such", "dir", "escape.jsonl"), true
			}
			return env(k)
		})
		c, _ := commands.Lookup("turn-state-reset")
		c.Main(nil, strings.NewReader(`{"session_id":"E"}`), io.Discard, io.Discard, broken)
		g, _ := commands.Lookup("how-do-i-gate")
		var out bytes.Buffer
		g.Main(nil, strings.NewReader(`{"session_id":"E","tool_name":"Edit"}`), &out, io.Discard, broken)
		if !strings.Contains(out.String(), "HOW-DO-I-GATE") {
			t.Error("an unwritable escape log disarmed the gate")
		}
	}
	s := newSandbox(t)
	boom := cli.Hook{Label: gate.LabelHowDoI, Body: func(io.Reader, io.Writer, io.Writer, cli.Env) int { panic("boom") }}
	if code := boom.Main(nil, strings.NewReader("{}"), io.Discard, io.Discard, s.envMap()); code != 0 {
		t.Errorf("a panicking gate exits %d", code)
	}
	b, _ := os.ReadFile(filepath.Join(s.root, "failopen.jsonl"))
	if !bytes.Contains(b, []byte(`"gate":"how-do-i","why":"internal-error"`)) {
		t.Fatalf("no internal-error record: %q", b)
	}
}

// Speed: one how-do-i-gate process on an allowlisted Read and on a 20-stage
// read-only Bash pipeline, against a no-op start of the same binary,
// alternated in one loop. The figures are reported, never asserted.
func BenchmarkHowDoIGateProcess(b *testing.B) {
	s := newSandbox(b)
	read := []byte(`{"session_id":"B","tool_name":"Read","tool_input":{"file_path":"/etc/hosts"}}`)
	cmd20 := "cat f" + strings.Repeat(" | grep -v x", 18) + " | wc -l"
	if !shellread.ReadOnly(cmd20) {
		b.Fatal("the 20-stage command must be read-only")
	}
	bash, _ := json.Marshal(map[string]any{"session_id": "B", "tool_name": "Bash", "tool_input": map[string]string{"command": cmd20}})
	var tRead, tBash, tNoop time.Duration
	timeRun := func(name string, in []byte) time.Duration {
		cmd := s.command(b, name, in)
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	for b.Loop() {
		tNoop += timeRun("noop", nil)
		tRead += timeRun("how-do-i-gate", read)
		tBash += timeRun("how-do-i-gate", bash)
	}
	n := float64(b.N)
	b.ReportMetric(float64(tNoop.Microseconds())/n, "noop-µs/op")
	b.ReportMetric(float64(tRead.Microseconds())/n, "read-µs/op")
	b.ReportMetric(float64(tBash.Microseconds())/n, "bash20-µs/op")
	b.ReportMetric(float64(tRead)/float64(tNoop), "read/noop")
	b.ReportMetric(float64(tBash)/float64(tNoop), "bash20/noop")
}

// hwmFileEnv names a file into which a hook child writes its peak RSS in
// KiB (VmHWM of /proc/self/status) as it exits.
const hwmFileEnv = "GATES_TEST_HWM_FILE"

func writeHWM(file string) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			os.WriteFile(file, []byte(strings.TrimSuffix(strings.TrimSpace(v), " kB")), 0o600)
		}
	}
}
