//go:build unix

package evidence

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
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
	if _, err := Sweep(Options{Projects: dir, CacheDir: os.Getenv(childCacheEnv)}); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkSweepCache measures the cache against ccusage on the same
// generated corpus (about 300 MB), each run a process of its own, best of
// three: a cold sweep writing the cache, a warm one (nothing changed),
// and one after a session's worth of rows is appended to a transcript.
// It reports ccusage's wall and CPU time over ours for each
// (x-ccusage-*), and needs ccusage (.ci/evidence).
func BenchmarkSweepCache(b *testing.B) {
	bin := ccusage(b)
	config := filepath.Join(b.TempDir(), ".claude")
	projects := filepath.Join(config, "projects")
	genCorpus(b, projects, 72, 60, 40<<10)
	cache := filepath.Join(b.TempDir(), "cache")
	mains, _ := filepath.Glob(filepath.Join(projects, "*", "*.jsonl"))
	chunk, err := os.ReadFile(mains[0])
	if err != nil {
		b.Fatal(err)
	}
	child := func(prep func()) (wall, cpuT time.Duration) {
		for range 3 {
			prep()
			c := exec.Command(os.Args[0], "-test.run=^TestSweepChild$", "-test.count=1")
			c.Env = append(os.Environ(), childEnv+"="+projects, childCacheEnv+"="+cache)
			start := time.Now()
			if out, err := c.CombinedOutput(); err != nil {
				b.Fatalf("child sweep: %v\n%s", err, out)
			}
			if d := time.Since(start); wall == 0 || d < wall {
				wall = d
			}
			if t := cpu(c.ProcessState); cpuT == 0 || t < cpuT {
				cpuT = t
			}
		}
		return wall, cpuT
	}
	theirs := func(prep func()) (wall, cpuT time.Duration) {
		for range 3 {
			prep()
			start := time.Now()
			_, st := runCCUsageState(b, bin, config)
			if d := time.Since(start); wall == 0 || d < wall {
				wall = d
			}
			if t := cpu(st); cpuT == 0 || t < cpuT {
				cpuT = t
			}
		}
		return wall, cpuT
	}
	settle := func() { time.Sleep(racyWindow) }
	nothing := func() {}
	appendSession := func() {
		f, err := os.OpenFile(mains[1], os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		f.Write(chunk)
		f.Close()
	}
	settle()
	b.ResetTimer()
	for b.Loop() {
		for _, c := range []struct {
			name string
			prep func()
		}{
			{"cold", func() { os.RemoveAll(cache) }},
			{"warm", nothing},
			{"appended", appendSession},
		} {
			if c.name == "warm" {
				child(nothing) // the cache written, out of the racy window
				settle()
			}
			ow, oc := child(c.prep)
			tw, tc := theirs(c.prep)
			b.ReportMetric(tw.Seconds()/ow.Seconds(), "x-ccusage-"+c.name+"-wall")
			b.ReportMetric(tc.Seconds()/oc.Seconds(), "x-ccusage-"+c.name+"-cpu")
		}
	}
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
