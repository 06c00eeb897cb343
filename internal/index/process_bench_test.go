package index_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/writerindex"
)

// queryVsEnv names a second query-records binary for BenchmarkProcess
// (for example one built from the commit before the index: the issue's
// "today").
const queryVsEnv = "PROCEDURES_QUERY_VS"

// BenchmarkProcess runs query-records as whole processes, as a user runs
// it: a binary built from this tree (CGO_ENABLED=0, as the bundle builds
// it), with the index warm, warm beside a writers' index (as once a writer
// has run: warm-writers), cold (the index directory deleted before each
// run) and off (PROCEDURES_NO_INDEX=1). With PROCEDURES_QUERY_VS naming
// another query-records binary, each run of this tree's is paired with a
// run of that one, in turn, on the same corpus and environment (its own
// index directory, deleted alike for cold), and x-faster is the median
// over the pairs of its wall time over ours (above 1: ours is faster);
// vs-ms and vs-cpu-ms are its medians. The first run of each is outside
// the timing and must print what the other prints. It measures; it
// asserts no time.
//
//	PROCEDURES_BENCH_RECORDS=20000 PROCEDURES_QUERY_VS=/tmp/old/query-records \
//	  go test -run '^$' -bench Process -benchtime 21x ./internal/index
func BenchmarkProcess(b *testing.B) {
	root := corpus(b)
	bin := filepath.Join(b.TempDir(), "query-records")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, "github.com/procedures-go/procedures/cmd/query-records")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	vs := os.Getenv(queryVsEnv)
	for _, args := range [][]string{{"--kind", "decision"}, {"--links-to", "rec-3"}} {
		for _, mode := range []string{"warm", "warm-writers", "cold", "no-index"} {
			b.Run(args[0]+"/"+mode, func(b *testing.B) {
				ours := newProcRun(b, bin, root, mode, args)
				var theirs *procRun
				if vs != "" {
					theirs = newProcRun(b, vs, root, mode, args)
					if !bytes.Equal(ours.first, theirs.first) {
						b.Fatalf("%s prints %d bytes, this tree's binary %d: not the same output", vs, len(theirs.first), len(ours.first))
					}
				}
				var ratios []float64
				for b.Loop() {
					w := ours.run(b)
					if theirs != nil {
						ratios = append(ratios, float64(theirs.run(b))/float64(w))
					}
				}
				b.ReportMetric(ours.median(ours.wall), "ms")
				b.ReportMetric(ours.median(ours.cpu), "cpu-ms")
				if theirs != nil {
					b.ReportMetric(theirs.median(theirs.wall), "vs-ms")
					b.ReportMetric(theirs.median(theirs.cpu), "vs-cpu-ms")
					slices.Sort(ratios)
					b.ReportMetric(ratios[len(ratios)/2], "x-faster")
				}
			})
		}
	}
}

// procRun runs one binary in one mode, keeping each run's wall and CPU
// time (user+system of the child, from its rusage).
type procRun struct {
	bin, cache, mode string
	args, env        []string
	first            []byte // what the untimed first run printed
	wall, cpu        []time.Duration
}

func newProcRun(b *testing.B, bin, root, mode string, args []string) *procRun {
	r := &procRun{bin: bin, cache: b.TempDir(), mode: mode, args: args}
	r.env = append(os.Environ(), "QUERY_RECORDS_ROOT="+root, "XDG_CACHE_HOME="+r.cache)
	if mode == "no-index" {
		r.env = append(r.env, "PROCEDURES_NO_INDEX=1")
	}
	if mode == "warm-writers" {
		w := writerindex.Open(root, writerindex.Options{Dir: filepath.Join(r.cache, "procedures")})
		if w == nil {
			b.Fatal("no writers' index")
		}
		w.Close()
	}
	r.first = r.exec(b) // for warm: the run that writes the index
	r.wall, r.cpu = nil, nil
	return r
}

// run is one timed run; it returns its wall time.
func (r *procRun) run(b *testing.B) time.Duration {
	if r.mode == "cold" {
		b.StopTimer()
		os.RemoveAll(filepath.Join(r.cache, "procedures"))
		b.StartTimer()
	}
	r.exec(b)
	return r.wall[len(r.wall)-1]
}

func (r *procRun) exec(b *testing.B) []byte {
	cmd := exec.Command(r.bin, r.args...)
	cmd.Env = r.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	t := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s %v: %v\n%s", r.bin, r.args, err, errb.String())
	}
	r.wall = append(r.wall, time.Since(t))
	r.cpu = append(r.cpu, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
	return out.Bytes()
}

// median is the median of ds in milliseconds.
func (*procRun) median(ds []time.Duration) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	return float64(s[len(s)/2].Microseconds()) / 1000
}
