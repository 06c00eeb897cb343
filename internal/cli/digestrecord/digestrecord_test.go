package digestrecord

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/proctest"
)

// testEnv points every location the hook uses into dir.
func testEnv(dir string, extra ...string) func(string) string {
	m := map[string]string{
		"HOME":              filepath.Join(dir, "home"),
		"GATE_FAILOPEN_LOG": filepath.Join(dir, "gate-failopen.jsonl"),
		"TURN_STATE_DIR":    filepath.Join(dir, "ts"),
	}
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i]] = extra[i+1]
	}
	return func(k string) string { return m[k] }
}

func livePayload(sid, result string) string {
	return fmt.Sprintf(`{"session_id":%q,"tool_name":"Skill","tool_input":{"skill":"procedures:how-do-i"},"tool_response":{"success":true,"status":"forked","commandName":"procedures:how-do-i","agentId":"a0","result":%q}}`, sid, result)
}

func runHook(t *testing.T, getenv func(string) string, payload string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := Main(nil, strings.NewReader(payload), &stdout, &stderr, asEnv(getenv)); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if stdout.Len()+stderr.Len() > 0 {
		t.Fatalf("output: %q %q", stdout.String(), stderr.String())
	}
}

func logLines(t *testing.T, dir string) []string {
	data, err := os.ReadFile(filepath.Join(dir, "gate-failopen.jsonl"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

func TestStoresLiveShape(t *testing.T) {
	dir := t.TempDir()
	runHook(t, testEnv(dir), livePayload("s1", "GOAL: x\n"))
	entries, err := os.ReadDir(filepath.Join(dir, "ts", "digests"))
	if err != nil || len(entries) != 1 || !strings.HasPrefix(entries[0].Name(), "s1.digest.") {
		t.Fatalf("digests: %v %v", entries, err)
	}
	if l := logLines(t, dir); l != nil {
		t.Fatalf("logged %q", l)
	}
}

// A panic anywhere still exits 0 silently.
func TestPanicExitsZero(t *testing.T) {
	var stdout, stderr bytes.Buffer
	r := readerFunc(func([]byte) (int, error) { panic("boom") })
	if code := Main(nil, r, &stdout, &stderr, asEnv(testEnv(t.TempDir()))); code != 0 || stdout.Len()+stderr.Len() > 0 {
		t.Fatalf("exit %d, output %q %q", code, stdout.String(), stderr.String())
	}
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

// A stdin that cannot be read is a malformed payload.
func TestUnreadableStdin(t *testing.T) {
	dir := t.TempDir()
	r := readerFunc(func([]byte) (int, error) { return 0, io.ErrUnexpectedEOF })
	if code := Main(nil, r, io.Discard, io.Discard, asEnv(testEnv(dir))); code != 0 {
		t.Fatal(code)
	}
	if l := logLines(t, dir); len(l) != 1 || !strings.Contains(l[0], `"why":"malformed-payload"`) {
		t.Fatalf("log %q", l)
	}
}

// 9.3 fix: HOME and GATE_FAILOPEN_LOG both unset: exit 0, the digest is
// still stored (upstream exited 1 on every payload).
func TestHomeUnset(t *testing.T) {
	dir := t.TempDir()
	getenv := func(k string) string {
		if k == "TURN_STATE_DIR" {
			return filepath.Join(dir, "ts")
		}
		return ""
	}
	runHook(t, getenv, `{"tool_name":"Bash"}`)
	runHook(t, getenv, livePayload("s1", "GOAL: x"))
	if entries, _ := os.ReadDir(filepath.Join(dir, "ts", "digests")); len(entries) != 1 {
		t.Fatalf("digests: %v", entries)
	}
}

// Deliberate difference (9.1 hardening): a digest directory owned by another
// account is refused and logged as store-unwritable with the key. Staging it
// needs root (chown); CI runs as root.
func TestForeignOwnedStoreIsLogged(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to chown a directory to another account")
	}
	dir := t.TempDir()
	store := filepath.Join(dir, "foreign")
	if err := os.Mkdir(store, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(store, 0o777)
	if err := os.Chown(store, 65534, 65534); err != nil {
		t.Skip(err)
	}
	runHook(t, testEnv(dir, "SESSION_DIGEST_DIR", store), livePayload("s/1", "GOAL: leak"))
	if entries, _ := os.ReadDir(store); len(entries) != 0 {
		t.Fatalf("wrote into a foreign-owned directory: %v", entries)
	}
	if fi, _ := os.Stat(store); fi.Mode().Perm() != 0o777 {
		t.Fatalf("changed the foreign directory's mode to %v", fi.Mode().Perm())
	}
	l := logLines(t, dir)
	if len(l) != 1 || !strings.HasSuffix(l[0], `"gate":"digest-record","why":"store-unwritable","session_id":"s_1"}`) {
		t.Fatalf("log %q", l)
	}
}

// selfRole, when set in the environment, makes the test binary play a
// process instead of running the tests, the way testscript re-executes its
// test binary for each command: "hook" runs this command's Main on the
// process's own streams, "noop" exits 0 at once (the process-start baseline).
const selfRole = "DIGEST_RECORD_TEST_ROLE"

func TestMain(m *testing.M) {
	switch os.Getenv(selfRole) {
	case "hook":
		os.Exit(Main(nil, os.Stdin, os.Stdout, os.Stderr, cli.OSEnv()))
	case "noop":
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// selfCmd is the test binary re-executed in the given role, with env (nil:
// the test's own environment) plus the role.
func selfCmd(tb testing.TB, role string, env []string) *exec.Cmd {
	return proctest.Self(tb, env, selfRole+"="+role)
}

// Concurrent writers with the real binary: 100 digest-record processes for one session,
// all started and parked reading stdin, released together by closing every
// pipe: 100 digests, every payload present, nothing logged.
func TestConcurrentHookProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	const n = 100
	dir := t.TempDir()
	env := append(os.Environ(), "HOME="+filepath.Join(dir, "home"), "GATE_FAILOPEN_LOG="+filepath.Join(dir, "gate-failopen.jsonl"),
		"TURN_STATE_DIR="+filepath.Join(dir, "ts"), "SESSION_DIGEST_DIR=")
	var cmds []*exec.Cmd
	var input [][]byte
	for i := range n {
		cmds = append(cmds, selfCmd(t, "hook", env))
		input = append(input, []byte(livePayload("cd95eb6f-408f-4c02-80af-46f48bb7eef4", fmt.Sprintf("concurrent-payload-%d", i))))
	}
	if err := proctest.RunParked(cmds, input); err != nil {
		t.Fatalf("hook process: %v", err)
	}
	ddir := filepath.Join(dir, "ts", "digests")
	entries, err := os.ReadDir(ddir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != n {
		t.Fatalf("expected %d digests, found %d — a write was lost", n, len(entries))
	}
	seen := map[string]bool{}
	for _, e := range entries {
		data, _ := os.ReadFile(filepath.Join(ddir, e.Name()))
		seen[string(data)] = true
	}
	for i := range n {
		if !seen[fmt.Sprintf("concurrent-payload-%d\n", i)] {
			t.Errorf("payload %d lost", i)
		}
	}
	if l := logLines(t, dir); l != nil {
		t.Fatalf("logged %q", l)
	}
}

// benchSetup reads the live fixture payload and returns it with an
// environment whose stores are all temporary.
func benchSetup(b *testing.B) (payload []byte, env []string) {
	payload, err := os.ReadFile("../../../testdata/hook/posttooluse-skill-forked.json")
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	return payload, append(os.Environ(), "HOME="+filepath.Join(dir, "home"), "GATE_FAILOPEN_LOG="+filepath.Join(dir, "gate-failopen.jsonl"),
		"TURN_STATE_DIR="+filepath.Join(dir, "ts"), "SESSION_DIGEST_DIR=")
}

// BenchmarkInvocation is one full hook invocation, process start included:
// the test binary re-executed as the hook on the live fixture.
func BenchmarkInvocation(b *testing.B) {
	payload, env := benchSetup(b)
	for b.Loop() {
		cmd := selfCmd(b, "hook", env)
		cmd.Stdin = bytes.NewReader(payload)
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNoopStart is the baseline: the same test binary re-executed to
// exit at once, given the same stdin.
func BenchmarkNoopStart(b *testing.B) {
	payload, _ := os.ReadFile("../../../testdata/hook/posttooluse-skill-forked.json")
	for b.Loop() {
		cmd := selfCmd(b, "noop", nil)
		cmd.Stdin = bytes.NewReader(payload)
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInvocationVsNoop alternates the two runs above in one loop, so
// that load on a shared machine hits both alike, and reports the ratio.
func BenchmarkInvocationVsNoop(b *testing.B) {
	payload, env := benchSetup(b)
	var hookTime, noopTime time.Duration
	for b.Loop() {
		for _, role := range []string{"noop", "hook"} {
			cmd := selfCmd(b, role, env)
			cmd.Stdin = bytes.NewReader(payload)
			start := time.Now()
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
			if role == "hook" {
				hookTime += time.Since(start)
			} else {
				noopTime += time.Since(start)
			}
		}
	}
	b.ReportMetric(float64(hookTime.Nanoseconds())/float64(b.N), "ns/hook")
	b.ReportMetric(float64(noopTime.Nanoseconds())/float64(b.N), "ns/noop")
	b.ReportMetric(float64(hookTime)/float64(noopTime), "hook/noop")
}

// asEnv reads getenv as a command's environment: an empty value is unset.
func asEnv(getenv func(string) string) cli.Env {
	return func(k string) (string, bool) { v := getenv(k); return v, v != "" }
}
