//go:build unix

package evidence

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"syscall"
	"testing"
	"time"
)

// childEnv makes TestSweepChild sweep the directory it names, so the
// benchmark can measure one sweep's peak RSS in a process of its own.
const childEnv = "PROCEDURES_EVIDENCE_BENCH_CHILD"

func TestSweepChild(t *testing.T) {
	dir := os.Getenv(childEnv)
	if dir == "" {
		t.Skip("the benchmark's child process")
	}
	debug.SetMemoryLimit(MemoryLimit) // as the command does
	if _, err := Sweep(Options{Projects: dir}); err != nil {
		t.Fatal(err)
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
