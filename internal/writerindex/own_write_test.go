package writerindex

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/cachefile"
	"github.com/procedures-go/procedures/internal/corpus"
)

// A writer accounts for its own write: the next writer does not list the
// directory again, and sees the record. Any other change to the directory,
// after the write or between the writer's validation and its last look
// just ahead of the write, makes the next writer list it again; so does a
// run of maxOwned own writes.
func TestWriterAccountsForItsOwnWrite(t *testing.T) {
	const rel = "references/decisions/"
	root, opts, dec := writersFixture(t)
	if cachefile.FineDev(root) == 0 {
		t.Skip("the temporary directory is not on a file system whose later changes always move the ctime: a writer's own write is not accounted for there")
	}
	n := 0
	record := func(id string) string {
		n++
		name := fmt.Sprintf("r%d.md", n)
		os.WriteFile(filepath.Join(dec, name), fmt.Appendf(nil, "---\nid: %s\nkind: decision\n---\n# r\n", id), 0o644)
		return name
	}
	for i := range 5 {
		record(fmt.Sprint("old", i))
	}
	open := func() *Index {
		t.Helper()
		w := Open(root, opts)
		if w == nil {
			t.Fatal("no writers' index")
		}
		return w
	}
	// write is one writer's own write of a record declaring id; between
	// runs after the writer validated the directory and before its last
	// look just ahead of the write.
	write := func(id string, between func()) {
		t.Helper()
		w := open()
		if between != nil {
			between()
		}
		w.Writing(rel + fmt.Sprintf("r%d.md", n+1))
		name := record(id)
		w.Wrote(rel + name)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	relisted := func() bool {
		t.Helper()
		w := open()
		defer w.Release()
		return w.dirs[rel].fresh
	}
	open().Close()
	open().Close() // listed and trusted

	write("mine", nil)
	if w := open(); w.dirs[rel].fresh || resolved(t, w, "mine") != 1 {
		t.Fatal("after its own write the directory was listed again, or the record not seen")
	}

	write("mine2", nil)
	record("theirs") // another program's record, after the write
	if w := open(); !w.dirs[rel].fresh || resolved(t, w, "theirs") != 1 {
		t.Fatal("a record made after the writer's own write was not seen by listing the directory again")
	}

	write("mine3", func() { record("between") })
	if w := open(); !w.dirs[rel].fresh || resolved(t, w, "between") != 1 {
		t.Fatal("a record made between the writer's validation and its write was not seen by listing the directory again")
	}

	open().Close()
	for i := range maxOwned + 1 { // the last one not accounted for
		write(fmt.Sprint("run", i), nil)
	}
	if !relisted() {
		t.Fatalf("after %d own writes in a row the directory was not listed again", maxOwned+1)
	}
}

// A writer that loaded the writers' index before a query told it about an
// id changed in place does not save over what the query saved: the
// writers still see the new id once the query index trusts the file (a
// query then tells the writers' index nothing: see index's
// TestReconcileOnlyWhatTheQueryReadAgain).
func TestWriterDoesNotSaveOverAQuerysReconcile(t *testing.T) {
	root, opts, dec := writersFixture(t)
	p := filepath.Join(dec, "x.md")
	body := "---\nid: aaaa\nkind: decision\n---\n# r\n"
	os.WriteFile(p, []byte(body), 0o644)
	cachefile.WaitTrusted(root)
	// readAgain is what a query that read x.md again (its stat not the
	// one its index holds) tells the writers' index.
	readAgain := func() {
		t.Helper()
		if _, err := Reconcile(root, opts, func() map[string]corpus.FileStat {
			st, _ := lstatFile(p)
			return map[string]corpus.FileStat{"references/decisions/x.md": st}
		}); err != nil {
			t.Fatal(err)
		}
	}
	Open(root, opts).Close()
	readAgain()               // the first query reads every file
	stale := Open(root, opts) // loaded before the edit and the query
	fi, _ := os.Stat(p)
	os.WriteFile(p, []byte(strings.Replace(body, "aaaa", "bbbb", 1)), 0o644)
	os.Chtimes(p, fi.ModTime(), fi.ModTime())
	readAgain() // the writers learn bbbb
	stale.changed = true
	stale.Close() // would save its view, with aaaa
	if got := resolved(t, Open(root, opts), "bbbb"); got != 1 {
		t.Fatal("a writer saved over the query's reconcile: the id changed in place is lost to the writers")
	}
}
