package writerindex_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/cachefile/cachefiletest"
)

// On a real file system of one-second times: a record created in a
// directory in the second a writer listed it is seen by the next writer,
// whenever that is (the query's case is index's TestOneSecondFileSystem).
func TestOneSecondFileSystem(t *testing.T) {
	mnt := cachefiletest.OneSecondFS(t)
	w := newWFixture(t, 13, 0)
	w.root = filepath.Join(mnt, "corpus")
	for range 20 {
		w.add()
	}
	dec := filepath.Join(w.root, "references/decisions")
	os.MkdirAll(dec, 0o755)
	rec := func(id, name string) string {
		q := filepath.Join(dec, name)
		os.WriteFile(q, []byte("---\nid: "+id+"\nkind: decision\ndate: 2026-01-01\nkeywords: [a]\nstatus: active\nlinks: []\n---\n# r\n"), 0o644)
		return q
	}
	cachefiletest.StartOfSecond()
	first := rec("first", "first.md")
	w.enforce(first, false) // lists the directory again, in this second
	rec("dup", "dup-a.md")
	if fi, _ := os.Stat(first); time.Since(fi.ModTime()) >= time.Second {
		t.Skip("the machine was too slow to stay within one second; nothing was proven")
	}
	time.Sleep(1100 * time.Millisecond)
	content := []byte("---\nid: dup\nkind: decision\ndate: 2026-01-01\nkeywords: [a]\nstatus: active\nlinks: []\n---\n# b\n")
	file := filepath.Join(dec, "dup-b.md")
	want := w.lint(file, content, true)
	if got := w.lint(file, content, false); got != want {
		t.Fatalf("the lint of a duplicate id with the index:\n%s\nwithout:\n%s", got, want)
	}
}
