package writerindex

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/cachefile"
)

// Save writes the writers' index only when that saves the next run work.
// A directory listed again at a stat of the current second (here: a future
// mtime, so that no second boundary can pass during the test), or written
// to by this run, is listed again by the next run whatever is saved, so
// its few new records alone do not make a write; a listing the written
// index would trust, or maxPending records to read again, do.
func TestWritersSaveOnlyWhatIsTrusted(t *testing.T) {
	const rel = "references/decisions/"
	defer cachefile.NoFine()() // the racy rule alone: directories of the current second
	root, opts, dec := writersFixture(t)
	past, future := time.Now().Add(-time.Hour), time.Now().Add(time.Hour)
	n := 0
	add := func(k int, when time.Time) {
		for range k {
			n++
			p := filepath.Join(dec, fmt.Sprintf("r%d.md", n))
			os.WriteFile(p, fmt.Appendf(nil, "---\nid: r%d\nkind: decision\n---\n# r\n", n), 0o644)
			os.Chtimes(p, past, past)
		}
		os.Chtimes(dec, when, when)
	}
	add(3, past)
	cachefile.WaitTrusted(root) // the ctimes, which cannot be put back
	open := func() *Index {
		t.Helper()
		w := Open(root, opts)
		if w == nil {
			t.Fatal("no writers' index")
		}
		return w
	}
	var last uint64
	// saved runs Save and reports whether the index file was written
	// (replaced: a new inode).
	saved := func(w *Index) bool {
		t.Helper()
		if err := w.Save(); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(w.path)
		if err != nil {
			t.Fatal(err)
		}
		ino := fi.Sys().(*syscall.Stat_t).Ino
		wrote := ino != last
		last = ino
		return wrote
	}
	relisted := func(w *Index) bool { return w.dirs[rel].fresh }

	if w := open(); !saved(w) {
		t.Fatal("a new index was not written")
	}
	if w := open(); relisted(w) || saved(w) {
		t.Fatal("an unchanged corpus was listed again or written")
	}

	add(2, future)
	w := open()
	if !relisted(w) || saved(w) {
		t.Fatal("two new records in a directory of the current second: want listed again, not written")
	}
	if ids := resolved(t, w, "r4", "r5"); ids != 2 {
		t.Fatalf("the new records were not seen: %d of 2", ids)
	}
	if w := open(); !relisted(w) {
		t.Fatal("a directory whose listing was not written was trusted")
	}

	os.Chtimes(dec, past, past) // the second is over
	cachefile.WaitTrusted(root)
	if w := open(); !relisted(w) || !saved(w) {
		t.Fatal("a listing the index would now trust was not written")
	}
	if w := open(); relisted(w) {
		t.Fatal("the written listing was not trusted")
	}

	// Listed at a trusted stat, then written to: its stat is stale.
	add(1, past)
	cachefile.WaitTrusted(root)
	w = open()
	p := filepath.Join(dec, "new.md")
	os.WriteFile(p, []byte("---\nid: new\nkind: decision\n---\n# r\n"), 0o644)
	os.Chtimes(dec, future, future)
	w.Wrote(rel + "new.md")
	if saved(w) {
		t.Fatal("a directory this run wrote to was written: the next run lists it again anyway")
	}

	add(maxPending, future)
	if w := open(); !saved(w) {
		t.Fatalf("%d records to read again were not written", maxPending)
	}
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

// resolved is how many of ids the index maps to a record.
func resolved(t *testing.T, w *Index, ids ...string) int {
	t.Helper()
	m, err := w.Resolve(ids)
	if err != nil {
		t.Fatal(err)
	}
	k := 0
	for _, id := range ids {
		if m.Has(id) {
			k++
		}
	}
	return k
}

// Resolve finds the records of every id asked about, whether the ids are
// few (compared one by one) or many (looked up by hash).
func TestResolveFewAndMany(t *testing.T) {
	root, opts, dec := writersFixture(t)
	for i := range 30 {
		os.WriteFile(filepath.Join(dec, fmt.Sprintf("r%d.md", i)), fmt.Appendf(nil, "---\nid: r%d\nkind: decision\n---\n# r\n", i), 0o644)
	}
	Open(root, opts).Close()
	for _, n := range []int{1, 3, 8, 9, 20} {
		var ids []string
		for i := range n {
			ids = append(ids, fmt.Sprintf("r%d", 3*i), fmt.Sprintf("missing-%d", i))
		}
		w := Open(root, opts)
		m, err := w.Resolve(ids)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			var k int
			if _, err := fmt.Sscanf(id, "r%d", &k); err == nil && k < 30 {
				if files := m.Files(id); len(files) != 1 || files[0] != "references/decisions/"+id+".md" {
					t.Errorf("%d ids: %s resolves to %v", len(ids), id, files)
				}
			} else if m.Has(id) {
				t.Errorf("%d ids: %s resolves to %v, want none", len(ids), id, m.Files(id))
			}
		}
		w.Close()
	}
}
