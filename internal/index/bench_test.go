package index_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/cli/queryrecords"
	"github.com/procedures-go/procedures/internal/testcache"
)

// benchRecords is the corpus size of the benchmarks: $PROCEDURES_BENCH_RECORDS,
// else 2000 (kept small for a shared machine; docs/benchmarks.md's figures use
// PROCEDURES_BENCH_RECORDS=20000).
func benchRecords() int {
	if n, err := strconv.Atoi(os.Getenv("PROCEDURES_BENCH_RECORDS")); err == nil && n > 0 {
		return n
	}
	return 2000
}

// benchCorpora holds the generated corpora by size, one per process.
var benchCorpora = map[int]string{}

// corpus is the corpus of benchRecords() records.
func corpus(b *testing.B) string { return corpusOf(b, benchRecords()) }

// corpusOf generates (once per process) n records spread over the record
// stores, mtimes an hour old so that no entry is racy.
func corpusOf(b *testing.B, n int) string { return corpusOfT(b, n) }

func corpusOfT(b testing.TB, n int) string {
	if root, ok := benchCorpora[n]; ok {
		return root
	}
	root, err := os.MkdirTemp("", "index-bench-")
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 7))
	old := time.Now().Add(-time.Hour)
	for i := range n {
		dir := filepath.Join(root, dirs[i%len(dirs)])
		os.MkdirAll(dir, 0o755)
		p := filepath.Join(dir, fmt.Sprintf("r%d.md", i))
		os.WriteFile(p, []byte(record(r, i)), 0o644)
		os.Chtimes(p, old, old)
	}
	for _, d := range dirs { // the directories too: none is racy
		os.Chtimes(filepath.Join(root, d), old, old)
	}
	benchCorpora[n] = root
	return root
}

func benchQuery(b *testing.B, args []string, mode string) {
	root := corpus(b)
	cache := b.TempDir()
	env := map[string]string{"QUERY_RECORDS_ROOT": root, "XDG_CACHE_HOME": cache}
	if mode == "no-index" {
		env["PROCEDURES_NO_INDEX"] = "1"
	}
	run := func() {
		var out, errb bytes.Buffer
		if queryrecords.Main(args, nil, &out, &errb, cli.MapEnv(env)) != 0 {
			b.Fatal(errb.String())
		}
	}
	run() // warms the index (and the page cache)
	b.ResetTimer()
	for b.Loop() {
		if mode == "cold" {
			b.StopTimer()
			os.RemoveAll(filepath.Join(cache, "procedures"))
			b.StartTimer()
		}
		run()
	}
}

func BenchmarkKind(b *testing.B) {
	for _, mode := range []string{"no-index", "cold", "warm"} {
		b.Run(mode, func(b *testing.B) { benchQuery(b, []string{"--kind", "decision"}, mode) })
	}
}

func BenchmarkLinksTo(b *testing.B) {
	for _, mode := range []string{"no-index", "cold", "warm"} {
		b.Run(mode, func(b *testing.B) { benchQuery(b, []string{"--links-to", "rec-3"}, mode) })
	}
}

func BenchmarkKeyword(b *testing.B) {
	for _, mode := range []string{"no-index", "warm"} {
		b.Run(mode, func(b *testing.B) { benchQuery(b, []string{"--keyword", "alpha racy"}, mode) })
	}
}

// TestMain removes the corpora the benchmarks generated.
func TestMain(m *testing.M) {
	code := testcache.Main(m) // the cache in a directory of the run's own
	for _, root := range benchCorpora {
		os.RemoveAll(root)
	}
	os.Exit(code)
}
