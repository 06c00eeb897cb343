package index

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/corpus"
)

// listDir returns every entry, its buffer filled call after call and
// replaced when full: with a small buffer, a directory of 3000 entries
// takes many getdents calls and several buffers.
func TestListDir(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for i := range 3000 {
		name := fmt.Sprintf("record-with-a-longer-name-%04d.md", i)
		if i%500 == 0 {
			name = fmt.Sprintf("sub-%d", i)
			os.Mkdir(filepath.Join(dir, name), 0o755)
		} else {
			os.WriteFile(filepath.Join(dir, name), nil, 0o644)
		}
		want = append(want, name)
	}
	for _, max := range []int64{maxListBuf, 8 << 10} {
		saved := maxListBuf
		maxListBuf = max
		ents, st, err := listDir(dir, false)
		maxListBuf = saved
		if err != nil {
			t.Fatal(err)
		}
		if st.Ino == 0 {
			t.Error("no stat")
		}
		var got []string
		for _, e := range ents {
			if e.dir != (string(e.name[:4]) == "sub-") || e.reg == e.dir {
				t.Errorf("%s: dir %v reg %v", e.name, e.dir, e.reg)
			}
			got = append(got, string(e.name))
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("buffer %d: %d entries listed, want %d", max, len(got), len(want))
		}
	}
}

// The writers' index is read through a mapping of its file, which Close
// releases: a process that writes many records (the in-process tests, a
// Go tool) does not accumulate mappings.
func TestWritersCloseUnmaps(t *testing.T) {
	root, opts, dec := writersFixture(t)
	os.WriteFile(filepath.Join(dec, "a.md"), []byte("---\nid: a\nkind: decision\n---\n# a\n"), 0o644)
	OpenWriters(root, opts).Close() // built and written
	mapped := func(path string) int {
		b, err := os.ReadFile("/proc/self/maps")
		if err != nil {
			t.Skip(err)
		}
		return strings.Count(string(b), path)
	}
	w := OpenWriters(root, opts)
	if w == nil || w.unmap == nil {
		t.Fatal("the index was not loaded")
	}
	path := w.path
	if mapped(path) != 1 {
		t.Fatalf("the loaded index is mapped %d times, want once", mapped(path))
	}
	if m, _ := w.Resolve([]string{"a"}); !m.Has("a") {
		t.Fatal("the mapped index does not resolve its record")
	}
	w.Close()
	if n := mapped(path); n != 0 {
		t.Fatalf("after Close the index is still mapped (%d)", n)
	}
}

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
