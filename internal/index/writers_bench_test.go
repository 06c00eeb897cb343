package index_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/cli/enforcefrontmatter"
	"github.com/procedures-go/procedures/internal/cli/logrecord"
)

// BenchmarkWriters times the two writers per call at 200 records and at
// benchRecords() (PROCEDURES_BENCH_RECORDS; docs/benchmarks.md's figures use
// 20000), without the index and with a warm one: enforce-frontmatter on a
// Write of one record (the file rewritten before each call), and
// log-record decision writing a new record (removed again, untimed). The
// two sizes run in turn within one loop, so that load on a shared machine
// hits both alike; ratio is the large corpus's cost over the small one's.
func BenchmarkWriters(b *testing.B) {
	n := benchRecords()
	for _, w := range []struct {
		name string
		call func(b *testing.B, root string, mode string) func()
	}{{"enforce-frontmatter", enforceCall}, {"log-record", logRecordCall}} {
		for _, mode := range []string{"no-index", "warm"} {
			b.Run(w.name+"/"+mode, func(b *testing.B) {
				small, large := w.call(b, corpusOf(b, 200), mode), w.call(b, corpusOf(b, n), mode)
				small()
				large()
				var ts, tl time.Duration
				for b.Loop() {
					t := time.Now()
					small()
					ts += time.Since(t)
					t = time.Now()
					large()
					tl += time.Since(t)
				}
				b.ReportMetric(float64(ts.Microseconds())/1000/float64(b.N), "ms-200")
				b.ReportMetric(float64(tl.Microseconds())/1000/float64(b.N), fmt.Sprintf("ms-%d", n))
				b.ReportMetric(float64(tl)/float64(ts), "ratio")
			})
		}
	}
}

func writerEnv(b *testing.B, root, mode string) cli.Env {
	env := map[string]string{"KNOWLEDGE_ROOT": root, "CODEX_ROOT": root, "HOME": root + "-home",
		"XDG_CACHE_HOME": b.TempDir()}
	if mode == "no-index" {
		env["PROCEDURES_NO_INDEX"] = "1"
	}
	return cli.MapEnv(env)
}

// enforceCall is one enforce-frontmatter call on a Write of a record.
func enforceCall(b *testing.B, root, mode string) func() {
	env := writerEnv(b, root, mode)
	target := filepath.Join(root, dirs[1], "r1.md") // references/solutions
	content, err := os.ReadFile(target)
	if err != nil {
		b.Fatal(err)
	}
	payload := fmt.Sprintf(`{"tool_name":"Write","tool_input":{"file_path":%q}}`, target)
	run := func() {
		os.WriteFile(target, content, 0o644)
		enforcefrontmatter.Main(nil, strings.NewReader(payload), &bytes.Buffer{}, &bytes.Buffer{}, env)
	}
	return run
}

// logRecordCall is one log-record decision call; the record it wrote is
// removed again (timed too: the directory then changes as for a new
// record).
func logRecordCall(b *testing.B, root, mode string) func() {
	env := writerEnv(b, root, mode)
	i := 0
	run := func() string {
		i++
		slug := fmt.Sprintf("bench-%d", i)
		var errb bytes.Buffer
		code := logrecord.Main([]string{"decision", "--slug", slug, "--date", "2026-01-01", "--title", "T",
			"--keywords", "alpha", "--links", "rec-3", "--summary", "s"}, strings.NewReader(""), &bytes.Buffer{}, &errb, env)
		if code != 0 {
			b.Fatal(errb.String())
		}
		return filepath.Join(root, "references/decisions", "2026-01-01-"+slug+".md")
	}
	return func() { os.Remove(run()) }
}
