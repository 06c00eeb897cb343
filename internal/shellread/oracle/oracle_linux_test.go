package oracle

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/procedures-go/procedures/internal/shellread"
	"mvdan.cc/sh/v3/syntax"
)

var (
	seedFlag    = flag.Uint64("oracle.seed", 1, "generator seed (env PROCEDURES_ORACLE_SEED)")
	countFlag   = flag.Int("oracle.n", 10000, "number of generated commands (env PROCEDURES_ORACLE_N)")
	indexFlag   = flag.Int("oracle.index", -1, "replay only this generated command (env PROCEDURES_ORACLE_INDEX)")
	workersFlag = flag.Int("oracle.workers", 0, "sandbox workers (0: 2 per CPU, at most 8)")
)

func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) == "1" {
		os.Exit(workerMain())
	}
	os.Exit(m.Run())
}

// allow is the verdict under test. The self-check replaces it.
var allow = shellread.ReadOnly

// shells are the two shells every allowed command runs in.
var shells = []string{"bash", "zsh"}

// requireOracle skips unless PROCEDURES_ORACLE=1, and when the machine
// cannot run the oracle it skips, or fails under CI=true.
func requireOracle(t testing.TB) {
	t.Helper()
	if os.Getenv("PROCEDURES_ORACLE") != "1" {
		t.Skip("the execution oracle runs only with PROCEDURES_ORACLE=1 (as root, with unshare, setpriv, bash and zsh; see .ci/oracle)")
	}
	var missing []string
	if os.Geteuid() != 0 {
		missing = append(missing, "root")
	}
	for _, p := range []string{"unshare", "setpriv", "bash", "zsh", "git"} {
		if _, err := exec.LookPath(p); err != nil {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		msg := "the execution oracle cannot run here: missing " + strings.Join(missing, ", ")
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + " (CI=true: failing instead of skipping)")
		}
		t.Skip(msg)
	}
}

// A pool of workers, each a sandbox in its own namespaces.
type pool struct {
	jobs chan poolJob
	wg   sync.WaitGroup
	errs chan error
}

type poolJob struct {
	job
	done chan<- result
}

func startPool(t testing.TB, n int) *pool {
	p := &pool{jobs: make(chan poolJob), errs: make(chan error, n)}
	for range n {
		c := exec.Command("unshare", "--mount", "--net", "--pid", "--uts", "--ipc", "--fork", "--mount-proc",
			os.Args[0], "-test.run=^$")
		c.Env = append(os.Environ(), workerEnv+"=1")
		c.Stderr = os.Stderr
		in, err := c.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		out, err := c.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Start(); err != nil {
			t.Fatalf("starting a sandbox worker: %v", err)
		}
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			p.errs <- serve(c, in, out, p.jobs)
		}()
	}
	return p
}

// serve feeds one worker its jobs, one at a time.
func serve(c *exec.Cmd, in io.WriteCloser, out io.Reader, jobs <-chan poolJob) error {
	dec := bufio.NewScanner(out)
	dec.Buffer(make([]byte, 1<<20), 64<<20)
	enc := json.NewEncoder(in)
	for j := range jobs {
		if err := enc.Encode(j.job); err != nil {
			return fmt.Errorf("sending to a worker: %w", err)
		}
		if !dec.Scan() {
			in.Close()
			return fmt.Errorf("a worker died on %s -c %q: %v", j.Shell, j.Cmd, c.Wait())
		}
		var r result
		if err := json.Unmarshal(dec.Bytes(), &r); err != nil {
			return err
		}
		j.done <- r
	}
	in.Close()
	return c.Wait()
}

func (p *pool) close(t testing.TB) {
	close(p.jobs)
	p.wg.Wait()
	close(p.errs)
	for err := range p.errs {
		if err != nil {
			t.Error(err)
		}
	}
}

func workers() int {
	if *workersFlag > 0 {
		return *workersFlag
	}
	return min(8, 2*runtime.NumCPU())
}

// notRun are tools the sandbox must not execute: they act through a
// daemon outside it (a socket a namespace does not cut off). Their
// grammars are pinned by shellread's table tests.
var notRun = map[string]bool{"docker": true, "systemctl": true}

var builtins = map[string]bool{"command": true, "echo": true, "printf": true, "pwd": true, "cd": true, "type": true, "true": true, "test": true, "[": true, "[[": true}

// missingTool returns the first command name in cmd that cannot be
// executed here, or "".
func missingTool(cmd string) string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		return ""
	}
	missing := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 || missing != "" {
			return missing == ""
		}
		name := c.Args[0].Lit()
		if name == "" || builtins[name] {
			return true
		}
		if notRun[name] {
			missing = name
		} else if _, err := exec.LookPath(name); err != nil {
			missing = name
		}
		return true
	})
	return missing
}

// A finding is an allowed command that changed something.
type finding struct {
	index   int
	shell   string
	cmd     string
	changes []string
}

type stats struct {
	generated, allowed int
	executed           map[string]int
	notOnMachine       map[string]int
	timeouts           int
	timedOut           []string // the first few commands killed at the time limit
}

// check runs every allowed command of cmds (index → command) in every
// shell and returns the findings sorted by index, then shell.
func check(t testing.TB, p *pool, cmds map[int]string) ([]finding, stats) {
	st := stats{executed: map[string]int{}, notOnMachine: map[string]int{}}
	var mu sync.Mutex
	var found []finding
	var wg sync.WaitGroup
	idx := slices.Sorted(func(yield func(int) bool) {
		for i := range cmds {
			if !yield(i) {
				return
			}
		}
	})
	for _, i := range idx {
		cmd := cmds[i]
		st.generated++
		if !allow(cmd) {
			continue
		}
		st.allowed++
		if tool := missingTool(cmd); tool != "" {
			st.notOnMachine[tool]++
			continue
		}
		for _, sh := range shells {
			done := make(chan result, 1)
			st.executed[sh]++
			p.jobs <- poolJob{job{ID: i, Shell: sh, Cmd: cmd}, done}
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := <-done
				mu.Lock()
				defer mu.Unlock()
				if r.Timeout {
					st.timeouts++
					if len(st.timedOut) < 10 {
						st.timedOut = append(st.timedOut, sh+" -c "+strconv.Quote(cmd))
					}
				}
				if r.Err != "" {
					t.Errorf("%s -c %q: %s", sh, cmd, r.Err)
				}
				if len(r.Changes) > 0 {
					found = append(found, finding{i, sh, cmd, r.Changes})
				}
			}()
		}
	}
	wg.Wait()
	slices.SortFunc(found, func(a, b finding) int {
		if a.index != b.index {
			return a.index - b.index
		}
		return strings.Compare(a.shell, b.shell)
	})
	return found, st
}

func envInt(name string, def int) int {
	if v := os.Getenv(name); v != "" {
		n, err := strconv.Atoi(v)
		if err == nil {
			return n
		}
	}
	return def
}

// TestOracle generates commands from the seed, runs every command the gate
// allows in bash and zsh inside the sandbox, and fails on every allowed
// command that changed anything, printing what replays it.
// PROCEDURES_ORACLE_FORCE (a command line) is treated as allowed and run
// first, at index -1: with a writing command it shows the oracle red.
func TestOracle(t *testing.T) {
	requireOracle(t)
	seed := *seedFlag
	if v := os.Getenv("PROCEDURES_ORACLE_SEED"); v != "" {
		var err error
		if seed, err = strconv.ParseUint(v, 10, 64); err != nil {
			t.Fatalf("PROCEDURES_ORACLE_SEED=%q: %v", v, err)
		}
	}
	n := envInt("PROCEDURES_ORACLE_N", *countFlag)
	only := envInt("PROCEDURES_ORACLE_INDEX", *indexFlag)
	cmds := map[int]string{}
	if only >= 0 {
		cmds[only] = Generated(seed, only)
	} else {
		for i := range n {
			cmds[i] = Generated(seed, i)
		}
	}
	if force := os.Getenv("PROCEDURES_ORACLE_FORCE"); force != "" {
		cmds[-1] = force
		prev := allow
		allow = func(c string) bool { return c == force || prev(c) }
		t.Cleanup(func() { allow = prev })
	}
	p := startPool(t, workers())
	found, st := check(t, p, cmds)
	p.close(t)
	t.Logf("seed %d: %d commands generated, %d allowed; executed: bash %d, zsh %d; allowed but not executed (tool not runnable here): %v; timeouts: %d; allowed writes: %d",
		seed, st.generated, st.allowed, st.executed["bash"], st.executed["zsh"], st.notOnMachine, st.timeouts, len(found))
	if len(st.timedOut) > 0 {
		t.Logf("killed at the time limit (%v), first %d: %s", timeLimit, len(st.timedOut), strings.Join(st.timedOut, "; "))
	}
	report(t, seed, found)
	if only < 0 && n >= 10000 && st.generated < 10000 {
		t.Errorf("generated %d commands, want at least 10000", st.generated)
	}
}

// report fails the test once per finding (the first 40 in full) and, when
// PROCEDURES_ORACLE_FINDINGS names a file, appends the distinct commands
// to it, each after a "# shell: what changed" line.
func report(t *testing.T, seed uint64, found []finding) {
	var w io.Writer = io.Discard
	if name := os.Getenv("PROCEDURES_ORACLE_FINDINGS"); name != "" {
		f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		w = f
	}
	seen := map[string]bool{}
	for k, f := range found {
		if k < 40 {
			replay := fmt.Sprintf("PROCEDURES_ORACLE_SEED=%d PROCEDURES_ORACLE_INDEX=%d", seed, f.index)
			if f.index < 0 {
				replay = "PROCEDURES_ORACLE_N=0 PROCEDURES_ORACLE_FORCE=" + strconv.Quote(f.cmd)
			}
			t.Errorf("allowed command changed the sandbox\n  command: %q\n  shell:   %s\n  changed: %s\n  replay:  PROCEDURES_ORACLE=1 %s go test -run '^TestOracle$' ./internal/shellread/oracle",
				f.cmd, f.shell, strings.Join(f.changes, ", "), replay)
		}
		if !seen[f.cmd] {
			seen[f.cmd] = true
			fmt.Fprintf(w, "# %s: %s\n%s\n", f.shell, strings.Join(f.changes, ", "), strings.ReplaceAll(f.cmd, "\n", "\\n"))
		}
	}
	if len(found) > 40 {
		t.Errorf("... and %d more allowed commands that changed the sandbox (%d distinct commands)", len(found)-40, len(seen))
	}
}

// TestOracleSelfCheck forces writing commands through the gate and makes
// sure the oracle catches every one in both shells, and that a command that
// only reads passes.
func TestOracleSelfCheck(t *testing.T) {
	requireOracle(t)
	writes := []string{
		"touch F",
		"sort -o OUT f",
		"git branch nb",
		"git config core.x y",
		"git stash",
		"chmod 600 f",
		"rm sub/h",
		"echo x >/tmp/o",
		"echo x >/var/tmp/o",
		"mkdir /dev/shm/d",
		"echo x >>$HOME/.gitconfig",
		"(sleep 0.2; touch /tmp/late) &",
		"git update-index --chmod=+x f",
		"git update-index --assume-unchanged f",
		"git add g",
		"ls *(e:'touch F':)",
		"cat < /dev/tcp/127.0.0.1/80",
		"getent hosts oracle-probe.example",
		"python3 -c 'import socket,time; s=socket.socket(); s.bind((\"127.0.0.1\",9999)); s.listen(); time.sleep(3)' >/dev/null 2>&1 & sleep 1.2",
	}
	reads := []string{"ls", "git status", "cat f | sort | uniq -c", "git log --oneline", "git stash list", "sleep 5"}
	prev := allow
	allow = func(c string) bool { return true }
	defer func() { allow = prev }()
	cmds := map[int]string{}
	for i, c := range append(slices.Clone(writes), reads...) {
		cmds[i] = c
	}
	p := startPool(t, 2)
	found, st := check(t, p, cmds)
	p.close(t)
	caught := map[string]int{}
	what := map[string]string{}
	for _, f := range found {
		caught[f.cmd]++
		what[f.cmd] = f.shell + ": " + strings.Join(f.changes, ", ")
	}
	for _, c := range writes {
		want := 2
		if strings.Contains(c, "*(e:") {
			want = 1 // bash has no glob qualifiers
		}
		if strings.Contains(c, "/dev/tcp/") {
			want = 1 // zsh has no /dev/tcp
		}
		if caught[c] != want {
			t.Errorf("the oracle missed a forced write: %q caught in %d shells, want %d", c, caught[c], want)
		}
	}
	for _, c := range reads {
		if caught[c] > 0 {
			t.Errorf("the oracle flags a read-only command: %q (%s)", c, what[c])
		}
	}
	if st.timeouts != 2 {
		t.Errorf("timeouts = %d, want 2 (sleep 5 in both shells)", st.timeouts)
	}
}

var fuzzPool struct {
	once sync.Once
	p    *pool
}

// FuzzOracle runs the oracle on fuzzer-made command lines: whatever the gate
// allows must change nothing in either shell. The seed corpus is the
// generator's hand-written templates and the first mutations of seed 1.
func FuzzOracle(f *testing.F) {
	for _, s := range templates {
		f.Add(s)
	}
	for i := range 64 { // and a few of the mutations
		f.Add(Mutated(1, i))
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		if !allow(cmd) {
			return
		}
		requireOracle(t)
		fuzzPool.once.Do(func() { fuzzPool.p = startPool(t, 1) })
		found, _ := check(t, fuzzPool.p, map[int]string{0: cmd})
		for _, f := range found {
			t.Errorf("allowed command changed the sandbox\n  command: %q\n  shell:   %s\n  changed: %s", f.cmd, f.shell, strings.Join(f.changes, ", "))
		}
	})
}
