package index_test

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/cli/queryrecords"
	"testing"

	engine "github.com/procedures-go/procedures/internal/corpus"
	"github.com/procedures-go/procedures/internal/index"
)

// BenchmarkParts splits a warm query into its parts: the store walk, the
// index load, the stat pass with every entry trusted, and the save check.
func BenchmarkParts(b *testing.B) {
	root := corpus(b)
	cache := b.TempDir()
	env := index.Options{Dir: filepath.Join(cache, "procedures")}
	c, err := engine.Open(root, nil)
	if err != nil {
		b.Fatal(err)
	}
	q := engine.NewQuery()
	q.Kind = "decision"
	index.Query(c, q, env)
	b.Run("walk", func(b *testing.B) {
		for b.Loop() {
			engine.Open(root, nil)
		}
	})
	b.Run("load", func(b *testing.B) {
		for b.Loop() {
			index.Open(root, c.Stores, env)
		}
	})
	ix := index.Open(root, c.Stores, env)
	b.Run("stat-pass", func(b *testing.B) {
		for b.Loop() {
			c.QueryCached(q, ix)
		}
	})
	b.Run("read-pass", func(b *testing.B) {
		for b.Loop() {
			c.Query(q)
		}
	})
	// A cold query's parts: the pass that reads every file into an empty
	// index (nothing saved: the index has no file), and the save.
	none := index.Options{}
	b.Run("cold-pass", func(b *testing.B) {
		for b.Loop() {
			c.QueryCached(q, index.Open(root, c.Stores, none))
		}
	})
	b.Run("cold-save", func(b *testing.B) {
		empty := b.TempDir()
		at := index.Options{Dir: filepath.Join(empty, "procedures")}
		for b.Loop() {
			b.StopTimer()
			os.RemoveAll(filepath.Join(empty, "procedures"))
			ix := index.Open(root, c.Stores, at)
			c.QueryCached(q, ix)
			b.StartTimer()
			ix.Save(c.Paths())
		}
	})
}

// BenchmarkAlternated runs query-records without the index, warm, and cold
// (index deleted) in turn within one loop, so that load on a shared machine
// hits all three alike; it reports each one's mean and the ratios.
func BenchmarkAlternated(b *testing.B) {
	for _, args := range [][]string{{"--kind", "decision"}, {"--links-to", "rec-3"}} {
		b.Run(args[0], func(b *testing.B) {
			root := corpus(b)
			cache := b.TempDir()
			// CPU time (user+system, from getrusage) as well as wall time:
			// on a loaded shared machine the wall time is mostly waiting.
			cpu := func() time.Duration {
				var ru syscall.Rusage
				syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
				return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
			}
			var cpuNone, cpuWarm, cpuCold time.Duration
			run := func(noIndex bool, acc *time.Duration) time.Duration {
				c0 := cpu()
				defer func() { *acc += cpu() - c0 }()
				env := map[string]string{"QUERY_RECORDS_ROOT": root, "XDG_CACHE_HOME": cache}
				if noIndex {
					env["PROCEDURES_NO_INDEX"] = "1"
				}
				var out, errb bytes.Buffer
				t := time.Now()
				if queryrecords.Main(args, nil, &out, &errb, cli.MapEnv(env)) != 0 {
					b.Fatal(errb.String())
				}
				return time.Since(t)
			}
			var scratch time.Duration
			run(false, &scratch)
			var none, warm, cold time.Duration
			n := 0
			for b.Loop() {
				none += run(true, &cpuNone)
				warm += run(false, &cpuWarm)
				os.RemoveAll(filepath.Join(cache, "procedures"))
				cold += run(false, &cpuCold)
				n++
			}
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(n) }
			b.ReportMetric(ms(none), "no-index-ms")
			b.ReportMetric(ms(warm), "warm-ms")
			b.ReportMetric(ms(cold), "cold-ms")
			b.ReportMetric(float64(none)/float64(warm), "warm-speedup")
			b.ReportMetric(float64(none)/float64(cold), "cold-speedup")
			b.ReportMetric(ms(cpuNone), "no-index-cpu-ms")
			b.ReportMetric(ms(cpuWarm), "warm-cpu-ms")
			b.ReportMetric(ms(cpuCold), "cold-cpu-ms")
		})
	}
}
