package index_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/index"
)

// A record rewritten in place, same size, in the second a query read it,
// on a file system of one-second times (its stat then unchanged), is read
// again by the next query however late the index was saved: the stat was
// taken in the second the run observed from, so it was stored smudged.
func TestRacyRewriteInTheSecondOfTheRead(t *testing.T) {
	f := newFixture(t, 11, 20)
	stamp := time.Unix(1_800_000_000, 0)
	restore := index.OneSecond(stamp, stamp.Add(300*time.Millisecond))
	defer restore()
	f.run(queries[0], false) // reads every record, in the second of their stamp
	p := filepath.Join(f.root, "references/decisions/x.md")
	os.WriteFile(p, []byte("---\nid: x\nkind: decision\n---\n# x\n"), 0o644)
	f.run(queries[0], false)
	b, _ := os.ReadFile(p)
	os.WriteFile(p, bytes.Replace(b, []byte("decision"), []byte("solution"), 1), 0o644)
	index.OneSecond(stamp, stamp.Add(time.Hour)) // the index saved, and read, an hour later
	f.check("a same-size rewrite in the second of the read")
	f.check("again")
}

// A record created in a store directory in the second a writer listed it,
// after the listing, leaves the directory's stat as it was on a file system
// of one-second times: the next writer still lists the directory again
// (its listing was stored smudged) and refuses the duplicate id.
func TestRacyCreateInTheSecondOfTheListing(t *testing.T) {
	f := newWFixture(t, 12, 20)
	stamp := time.Unix(1_800_000_000, 0)
	restore := index.OneSecond(stamp, stamp.Add(300*time.Millisecond))
	defer restore()
	dec := filepath.Join(f.root, "references/decisions")
	os.MkdirAll(dec, 0o755)
	first := filepath.Join(dec, "first.md")
	os.WriteFile(first, []byte("---\nid: first\nkind: decision\ndate: 2026-01-01\nkeywords: [a]\nstatus: active\nlinks: []\n---\n# f\n"), 0o644)
	f.enforce(first, false) // lists the directory in the second of its stamp
	os.WriteFile(filepath.Join(dec, "dup-a.md"), []byte("---\nid: dup\nkind: decision\ndate: 2026-01-01\nkeywords: [a]\nstatus: active\nlinks: []\n---\n# a\n"), 0o644)
	index.OneSecond(stamp, stamp.Add(time.Hour))
	content := []byte("---\nid: dup\nkind: decision\ndate: 2026-01-01\nkeywords: [a]\nstatus: active\nlinks: []\n---\n# b\n")
	file := filepath.Join(dec, "dup-b.md")
	want := f.lint(file, content, true)
	if got := f.lint(file, content, false); got != want {
		t.Fatalf("the lint of a duplicate id with the index:\n%s\nwithout:\n%s", got, want)
	}
}

// An id changed in place, same size, its mtime put back (only the ctime
// moves), is seen by a writer once any command has read the file again: a
// query through the index, or query-records --cat; the writers learn what
// it read, in the same run.
func TestWritersSeeAnIDChangedInPlaceAfterAQuery(t *testing.T) {
	t.Run("a query", func(t *testing.T) {
		idChangedInPlace(t, func(f *wfixture, rel string) { f.query() })
	})
	t.Run("--cat", func(t *testing.T) {
		idChangedInPlace(t, func(f *wfixture, rel string) { f.fixture.run([]string{"--cat", rel}, false) })
	})
}

func idChangedInPlace(t *testing.T, read func(f *wfixture, rel string)) {
	f := newWFixture(t, 14, 20)
	dec := filepath.Join(f.root, "references/decisions")
	os.MkdirAll(dec, 0o755)
	p := filepath.Join(dec, "old.md")
	body := "---\nid: aaaa\nkind: decision\ndate: 2026-01-01\nkeywords: [a]\nstatus: active\nlinks: []\n---\n# r\n"
	os.WriteFile(p, []byte(body), 0o644)
	f.age()
	f.query()
	f.enforce(p, false) // the writers' index built, trusting old.md
	fi, _ := os.Stat(p)
	os.WriteFile(p, bytes.Replace([]byte(body), []byte("aaaa"), []byte("bbbb"), 1), 0o644)
	os.Chtimes(p, fi.ModTime(), fi.ModTime())
	read(f, "references/decisions/old.md")
	content := []byte(bytes.Replace([]byte(body), []byte("aaaa"), []byte("bbbb"), 1))
	file := filepath.Join(dec, "new.md")
	want := f.lint(file, content, true)
	if got := f.lint(file, content, false); got != want {
		t.Fatalf("the lint of the id changed in place with the index:\n%s\nwithout:\n%s", got, want)
	}
}
