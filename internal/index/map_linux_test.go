package index

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/corpus"
)

// A large query index is read through a mapping of its file, which Close
// releases; a small one is read. Either way a warm query answers as the
// cold one did.
func TestIndexMappedAndClosed(t *testing.T) {
	root, opts, dec := writersFixture(t)
	old := time.Now().Add(-time.Hour) // no entry is racy
	for i := range 50 {
		p := filepath.Join(dec, fmt.Sprintf("r%02d.md", i))
		os.WriteFile(p, []byte(fmt.Sprintf("---\nid: r%02d\nkind: decision\n---\n# r%02d\n", i, i)), 0o644)
		os.Chtimes(p, old, old)
	}
	mapped := func(path string) int {
		b, err := os.ReadFile("/proc/self/maps")
		if err != nil {
			t.Skip(err)
		}
		return strings.Count(string(b), path)
	}
	query := func() (*Index, []corpus.Record) {
		ix := ForQuery(root, nil, opts)
		c, err := ix.Corpus(root, corpus.DefaultStores())
		if err != nil {
			t.Fatal(err)
		}
		q := corpus.NewQuery()
		q.Kind = "decision"
		res, err := ix.Query(c, q)
		if err != nil {
			t.Fatal(err)
		}
		return ix, res
	}
	ix, cold := query()
	ix.Close()
	want := fmt.Sprint(cold)
	defer func(n int64) { mapFrom = n }(mapFrom)
	for _, from := range []int64{1 << 30, 0} {
		mapFrom = from
		ix, res := query()
		if len(ix.old) != 50 {
			t.Fatalf("mapping from %d: %d entries loaded, want 50", from, len(ix.old))
		}
		if got := fmt.Sprint(res); got != want {
			t.Fatalf("mapping from %d: %s, want %s", from, got, want)
		}
		if n, wantN := mapped(ix.path), map[bool]int{true: 1, false: 0}[from == 0]; n != wantN {
			t.Fatalf("mapping from %d: the index is mapped %d times, want %d", from, n, wantN)
		}
		ix.Close()
		if n := mapped(ix.path); n != 0 {
			t.Fatalf("mapping from %d: still mapped %d times after Close", from, n)
		}
	}
	var none *Index
	none.Close()
}
