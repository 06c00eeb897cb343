//go:build unix

package evidence

import (
	"os"
	"os/exec"
	"path/filepath"
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
	if _, err := Sweep(Options{Projects: dir}); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkSweep sweeps a generated corpus (about 60 MB: api-request-blob
// rows, streamed assistant messages, forks) and reports MB/s, the peak RSS
// of a sweep in its own process, and, when ccusage parity is on
// (.ci/evidence), how many times faster than `ccusage session --json` the
// sweep is on the same files, both timed as processes (ratio >= 1 is the
// goal).
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

	child := exec.Command(os.Args[0], "-test.run=^TestSweepChild$", "-test.count=1")
	child.Env = append(os.Environ(), childEnv+"="+projects)
	start := time.Now()
	if out, err := child.CombinedOutput(); err != nil {
		b.Fatalf("child sweep: %v\n%s", err, out)
	}
	ours := time.Since(start)
	ru := child.ProcessState.SysUsage().(*syscall.Rusage)
	b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MB") // Maxrss is in KiB on Linux
	if os.Getenv(ccusageEnv) != "" {
		bin := ccusage(b)
		start = time.Now()
		runCCUsage(b, bin, config)
		theirs := time.Since(start)
		b.ReportMetric(theirs.Seconds()/ours.Seconds(), "x-ccusage-speed")
	}
}
