package corpus

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// oneRecordKeywords is a record whose keywords: flow list holds n distinct
// tokens (k0, k1, ...).
func oneRecordKeywords(n int) []byte {
	var b strings.Builder
	b.WriteString("---\nid: big\nkind: decision\nkeywords: [")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("k" + strconv.Itoa(i))
	}
	b.WriteString("]\nlinks: []\n---\n# Big\n")
	return []byte(b.String())
}

// BenchmarkKeywordOneRecord: the cost of a --keyword query grows linearly
// with the keyword count of ONE record (10k, 100k; 1M keywords do not fit
// in the 1 MiB frontmatter cap, so BenchmarkKeywordTokens measures the
// same de-duplication at 1M). Compare ns/op across the sizes: a 10x larger
// record costs about 10x, not 100x.
func BenchmarkKeywordOneRecord(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			root := b.TempDir()
			dir := filepath.Join(root, "references", "decisions")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "big.md"), oneRecordKeywords(n), 0o644); err != nil {
				b.Fatal(err)
			}
			c, err := Open(root, Stores())
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				res, err := c.Query(Query{Keyword: "k5 nothing"})
				if err != nil || len(res) != 1 {
					b.Fatalf("%d results, %v", len(res), err)
				}
			}
		})
	}
}

// BenchmarkKeywordTokens: KeywordTokens over 10k, 100k and 1M distinct
// keywords; linear growth.
func BenchmarkKeywordTokens(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			vals := make([]string, n)
			for i := range vals {
				vals[i] = "k" + strconv.Itoa(i)
			}
			b.ReportAllocs()
			for b.Loop() {
				if got := keywordTokens(vals...); len(got) != n {
					b.Fatalf("%d tokens", len(got))
				}
			}
		})
	}
}
