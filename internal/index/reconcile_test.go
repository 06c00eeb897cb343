package index

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/cachefile"
	"github.com/procedures-go/procedures/internal/corpus"
	"github.com/procedures-go/procedures/internal/writerindex"
)

// A query tells the writers' index only about the files it read again:
// a warm query does not even open the writers' index (no work in
// proportion to the corpus), one after an edit in place looks at that
// record alone, and the writers then see its new id.
func TestReconcileOnlyWhatTheQueryReadAgain(t *testing.T) {
	root, opts, dec := writersFixture(t)
	past := time.Now().Add(-time.Hour)
	rec := func(i int, id string) {
		p := filepath.Join(dec, fmt.Sprintf("r%d.md", i))
		os.WriteFile(p, fmt.Appendf(nil, "---\nid: %s\nkind: decision\n---\n# r\n", id), 0o644)
		os.Chtimes(p, past, past)
	}
	const n = 40
	for i := range n {
		rec(i, fmt.Sprintf("r%d", i))
	}
	os.Chtimes(dec, past, past)
	cachefile.WaitTrusted(root)
	writerindex.Open(root, opts).Close()
	query := func() int { return queryDecisions(t, root, corpus.DefaultStores(), opts) }
	if got := query(); got != n {
		t.Fatalf("a cold query compared %d of the writers' records, want all %d", got, n)
	}
	asked := reconciles.Load()
	if got := query(); got != 0 || reconciles.Load() != asked {
		t.Fatalf("a warm query compared %d of the writers' records (want none) and asked their index %d times (want 0)", got, reconciles.Load()-asked)
	}
	rec(7, "renamed") // in place: same name, same inode
	if got := query(); got != 1 {
		t.Fatalf("a query after one edit compared %d of the writers' records, want 1", got)
	}
	if m, err := writerindex.Open(root, opts).Resolve([]string{"renamed"}); err != nil || !m.Has("renamed") {
		t.Fatal("the writers do not see the edited record's new id after the query")
	}
}

// queryDecisions runs a --kind decision query over root's stores through
// the index, as query-records does, and returns how many of the writers'
// records it compared.
func queryDecisions(t *testing.T, root string, stores []string, opts Options) int {
	t.Helper()
	ix := ForQuery(root, stores, opts)
	c, err := ix.Corpus(root, stores)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.QueryCached(corpus.Query{Kind: "decision"}, ix); err != nil {
		t.Fatal(err)
	}
	return ix.finish(c)
}

// writersFixture is an empty corpus root with its decisions store dec and
// a cache directory of its own (opts.Dir); it skips where the writers'
// index is not kept.
func writersFixture(t *testing.T) (root string, opts Options, dec string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the writers' index is kept on Linux only")
	}
	root, cache := t.TempDir(), t.TempDir()
	opts = Options{Dir: filepath.Join(cache, "procedures")}
	dec = filepath.Join(root, "references/decisions")
	os.MkdirAll(dec, 0o755)
	return root, opts, dec
}
