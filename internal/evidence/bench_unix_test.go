//go:build unix

package evidence

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// childEnv makes TestSweepChild sweep the directory it names, so the
// benchmark can measure one sweep's peak RSS in a process of its own.
const childEnv = "PROCEDURES_EVIDENCE_BENCH_CHILD"

// childCacheEnv, when set, is the cache directory the child sweeps with.
const childCacheEnv = "PROCEDURES_EVIDENCE_BENCH_CACHE"

func TestSweepChild(t *testing.T) {
	dir := os.Getenv(childEnv)
	if dir == "" {
		t.Skip("the benchmark's child process")
	}
	debug.SetMemoryLimit(MemoryLimit) // as the command does
	rep, err := Sweep(Options{Projects: dir, CacheDir: os.Getenv(childCacheEnv), JSONOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJSON(io.Discard); err != nil { // as --json does
		t.Fatal(err)
	}
}

// benchSessionsEnv sets how many sessions BenchmarkSweepCache generates:
// 72 (the default) make about 305 MB, 240 about 1 GB.
const benchSessionsEnv = "PROCEDURES_EVIDENCE_BENCH_SESSIONS"

// BenchmarkSweepCache measures the cache against ccusage on one generated
// history, each run a process of its own, in pairs (ours, then ccusage's,
// on the same files) whose ratio is taken pair by pair: a cold sweep
// writing the cache, a warm one (nothing changed), one after a session's
// worth of new turns is appended to a transcript, and one after a new
// session is added. It reports the median of five pairs of ccusage's
// wall and CPU time over ours for each (x-ccusage-CASE-wall, -cpu), and
// needs ccusage (.ci/evidence).
func BenchmarkSweepCache(b *testing.B) {
	bin := ccusage(b)
	sessions := 72
	if n, err := strconv.Atoi(os.Getenv(benchSessionsEnv)); err == nil && n > 0 {
		sessions = n
	}
	config := filepath.Join(b.TempDir(), ".claude")
	projects := filepath.Join(config, "projects")
	genCorpus(b, projects, sessions, 60, 40<<10)
	cache := filepath.Join(b.TempDir(), "cache")
	mains, _ := filepath.Glob(filepath.Join(projects, "*", "*.jsonl"))
	chunk, err := os.ReadFile(mains[0])
	if err != nil {
		b.Fatal(err)
	}
	added := 0
	// a session's worth of turns new to the history, for session sid
	fresh := func(sid string) []byte {
		added++
		tag := fmt.Sprintf("new%d_", added)
		out := bytes.ReplaceAll(chunk, []byte(`"id":"msg_`), []byte(`"id":"msg_`+tag))
		out = bytes.ReplaceAll(out, []byte(`"requestId":"req_`), []byte(`"requestId":"req_`+tag))
		return bytes.ReplaceAll(out, []byte(sessionOf(mains[0])), []byte(sid))
	}
	appendSession := func() {
		p := mains[(added*7+1)%len(mains)]
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		if _, err := f.Write(fresh(sessionOf(p))); err != nil {
			b.Fatal(err)
		}
	}
	newSession := func() {
		sid := fmt.Sprintf("00000000-0000-4000-9000-%012d", added)
		if err := os.WriteFile(filepath.Join(projects, "-proj0", sid+".jsonl"), fresh(sid), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	settle := func() { time.Sleep(racyWindow + 100*time.Millisecond) }
	ours := func() (wall, cpuT time.Duration) {
		c := exec.Command(os.Args[0], "-test.run=^TestSweepChild$", "-test.count=1")
		c.Env = append(os.Environ(), childEnv+"="+projects, childCacheEnv+"="+cache)
		start := time.Now()
		if out, err := c.CombinedOutput(); err != nil {
			b.Fatalf("child sweep: %v\n%s", err, out)
		}
		return time.Since(start), cpu(c.ProcessState)
	}
	theirs := func() (wall, cpuT time.Duration) {
		start := time.Now()
		_, st := runCCUsageState(b, bin, config)
		return time.Since(start), cpu(st)
	}
	settle()
	b.ResetTimer()
	for b.Loop() {
		for _, c := range []struct {
			name string
			prep func()
		}{
			{"cold", func() { os.RemoveAll(cache) }},
			{"warm", func() {}},
			{"appended", appendSession},
			{"new-session", newSession},
		} {
			if c.name == "warm" {
				ours() // the cache written, out of the racy window
			}
			var wall, cpus []float64
			for range 5 {
				c.prep()
				settle()
				ow, oc := ours()
				tw, tc := theirs()
				wall, cpus = append(wall, tw.Seconds()/ow.Seconds()), append(cpus, tc.Seconds()/oc.Seconds())
			}
			b.ReportMetric(median(wall), "x-ccusage-"+c.name+"-wall")
			b.ReportMetric(median(cpus), "x-ccusage-"+c.name+"-cpu")
		}
	}
}

// sessionOf is the session id a main transcript's name says.
func sessionOf(p string) string { return strings.TrimSuffix(filepath.Base(p), ".jsonl") }

func median(x []float64) float64 {
	slices.Sort(x)
	return x[len(x)/2]
}

// BenchmarkSweep sweeps a generated corpus (about 60 MB: api-request-blob
// rows, streamed assistant messages, forks) and reports MB/s, the peak RSS
// of a sweep in its own process, and, when ccusage parity is on
// (.ci/evidence), how many times faster than `ccusage session --json` the
// sweep is on the same files, both timed as processes: wall time and CPU
// time, best of three each (ratio >= 1 is the goal; on a loaded machine
// the CPU ratio is the steadier one).
func BenchmarkSweep(b *testing.B) {
	config := filepath.Join(b.TempDir(), ".claude")
	projects := filepath.Join(config, "projects")
	size := genCorpus(b, projects, 24, 60, 40<<10)
	b.SetBytes(size)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Sweep(Options{Projects: projects}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()

	// One sweep in a process of its own, for its peak RSS, alternated with
	// ccusage on the same files; the best of three runs of each (the
	// machine is shared) gives the ratio.
	var ours, theirs, oursCPU, theirsCPU time.Duration
	bin := ""
	if os.Getenv(ccusageEnv) != "" {
		bin = ccusage(b)
	}
	for range 3 {
		child := exec.Command(os.Args[0], "-test.run=^TestSweepChild$", "-test.count=1")
		child.Env = append(os.Environ(), childEnv+"="+projects)
		start := time.Now()
		if out, err := child.CombinedOutput(); err != nil {
			b.Fatalf("child sweep: %v\n%s", err, out)
		}
		if d := time.Since(start); ours == 0 || d < ours {
			ours = d
		}
		if c := cpu(child.ProcessState); oursCPU == 0 || c < oursCPU {
			oursCPU = c
		}
		ru := child.ProcessState.SysUsage().(*syscall.Rusage)
		b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MB") // Maxrss is in KiB on Linux
		if bin != "" {
			start = time.Now()
			_, st := runCCUsageState(b, bin, config)
			if d := time.Since(start); theirs == 0 || d < theirs {
				theirs = d
			}
			if c := cpu(st); theirsCPU == 0 || c < theirsCPU {
				theirsCPU = c
			}
		}
	}
	if bin != "" {
		b.ReportMetric(theirs.Seconds()/ours.Seconds(), "x-ccusage-wall")
		b.ReportMetric(theirsCPU.Seconds()/oursCPU.Seconds(), "x-ccusage-cpu")
	}
}

// cpu is a finished process's user and system CPU time.
func cpu(st *os.ProcessState) time.Duration { return st.UserTime() + st.SystemTime() }

// genDirEnv, with genSessionsEnv, makes TestGenCorpusTo write the
// benchmark's generated corpus into a directory that outlives the test,
// for measuring whole processes side by side (docs/evidence.md): 72
// sessions make about 305 MB, 240 about 1 GB.
const (
	genDirEnv      = "PROCEDURES_EVIDENCE_GEN_DIR"
	genSessionsEnv = "PROCEDURES_EVIDENCE_GEN_SESSIONS"
)

func TestGenCorpusTo(t *testing.T) {
	dir := os.Getenv(genDirEnv)
	if dir == "" {
		t.Skip("writes a corpus for measurement when " + genDirEnv + " is set")
	}
	n, err := strconv.Atoi(os.Getenv(genSessionsEnv))
	if err != nil || n <= 0 {
		t.Fatalf("%s: want a positive number of sessions", genSessionsEnv)
	}
	t.Logf("%d bytes", genCorpus(t, filepath.Join(dir, "projects"), n, 60, 40<<10))
}
