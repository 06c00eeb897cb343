package index_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/cachefile/cachefiletest"
	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/cli/queryrecords"
	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/index"
)

var (
	kinds = []string{"decision", "solution", "procedure", "failure-mode"}
	words = []string{"alpha", "beta", "gamma", "delta", "index", "stat", "cache", "racy", "gate", "hook"}
	dirs  = []string{"references/decisions", "references/solutions", "references/procedures", "plans"}
)

// record is a random record; n names it.
func record(r *rand.Rand, n int) string {
	var b strings.Builder
	if r.IntN(10) == 0 {
		return "no frontmatter at all\n" // a file without frontmatter
	}
	fmt.Fprintf(&b, "---\nid: rec-%d\nkind: %s\nproject: org/p%d\n", n, kinds[r.IntN(len(kinds))], r.IntN(3))
	b.WriteString("keywords: [")
	for i := range r.IntN(4) + 1 {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(words[r.IntN(len(words))])
	}
	b.WriteString("]\nlinks:\n")
	for range r.IntN(3) {
		fmt.Fprintf(&b, "  - rec-%d\n", r.IntN(40))
	}
	fmt.Fprintf(&b, "---\n# Record %d about %s\n\nbody\n", n, words[r.IntN(len(words))])
	return b.String()
}

var queries = [][]string{
	{"--kind", "decision"},
	{"--links-to", "rec-3"},
	{"--links-to", "rec-7", "--kind", "solution"},
	{"--id", "rec-5"},
	{"--project", "p1"},
	{"--keyword", "alpha racy"},
	{"--keyword", "gate", "--kind", "procedure"},
	{"--kind", "decision", "--full"},
	{"--keyword", "x"},
	{"--search", "alpha racy"},
	{"--search", "record about gamma", "--kind", "decision"},
	{"--search", "gama hok"},
	{"--search", "body", "--project", "p1", "--limit", "3"},
}

type fixture struct {
	t     *testing.T
	root  string
	cache string
	r     *rand.Rand
	n     int
}

func newFixture(t *testing.T, seed uint64, records int) *fixture {
	f := &fixture{t: t, root: t.TempDir(), cache: t.TempDir(), r: rand.New(rand.NewPCG(seed, 1))}
	for range records {
		f.add()
	}
	return f
}

func (f *fixture) add() {
	f.n++
	dir := filepath.Join(f.root, dirs[f.r.IntN(len(dirs))])
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, fmt.Sprintf("r%d.md", f.n)), []byte(record(f.r, f.n)), 0o644)
}

// age puts every file's and directory's mtime an hour back, so that no
// entry or listing is racy (see cachefiletest.Age).
func (f *fixture) age() { cachefiletest.Age(f.root) }

func (f *fixture) files() []string { return cachefiletest.Files(f.root) }

func (f *fixture) run(args []string, noIndex bool) string {
	env := map[string]string{"QUERY_RECORDS_ROOT": f.root, "XDG_CACHE_HOME": f.cache, "HOME": f.cache}
	if noIndex {
		env["PROCEDURES_NO_INDEX"] = "1"
	}
	var out, errb bytes.Buffer
	code := queryrecords.Main(args, nil, &out, &errb, cli.MapEnv(env))
	return fmt.Sprintf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
}

// check runs every query with the index and without, and wants the same
// bytes.
func (f *fixture) check(stage string) {
	f.t.Helper()
	for _, q := range queries {
		want := f.run(q, true)
		if got := f.run(q, false); got != want {
			f.t.Fatalf("%s: %q with the index:\n%s\nwithout:\n%s", stage, q, got, want)
		}
	}
}

func (f *fixture) indexFile() string { return f.indexFileNamed("*[0-9a-f].idx") }

// searchIndexFile is the search index (query-records --search).
func (f *fixture) searchIndexFile() string { return f.indexFileNamed("*.search.idx") }

func (f *fixture) indexFileNamed(pattern string) string {
	m, _ := filepath.Glob(filepath.Join(f.cache, "procedures", pattern))
	if len(m) != 1 {
		f.t.Fatalf("want one index file, have %q", m)
	}
	return m[0]
}

// edit makes one random change to the corpus.
func (f *fixture) edit() string {
	fs := f.files()
	p := fs[f.r.IntN(len(fs))]
	switch f.r.IntN(6) {
	case 0: // content
		os.WriteFile(p, []byte(record(f.r, f.n+1000)), 0o644)
		return "content"
	case 1: // rename
		os.Rename(p, filepath.Join(filepath.Dir(p), fmt.Sprintf("moved%d.md", f.r.IntN(1e6))))
		return "rename"
	case 2:
		os.Remove(p)
		return "delete"
	case 3:
		f.add()
		return "new file"
	case 4: // symlink swap: the record becomes a symlink to another record
		other := fs[f.r.IntN(len(fs))]
		os.Remove(p)
		os.Symlink(other, p)
		return "symlink swap"
	default: // same size, same second, mtime put back
		fi, err := os.Stat(p)
		if err != nil {
			return "none"
		}
		b, _ := os.ReadFile(p)
		b = bytes.Replace(b, []byte("decision"), []byte("solution"), 1)
		os.WriteFile(p, b, 0o644)
		os.Chtimes(p, fi.ModTime(), fi.ModTime())
		return "same-size edit, mtime kept"
	}
}

func TestDifferential(t *testing.T) {
	t.Run("read", differential)
	t.Run("mapped", func(t *testing.T) { // every index file mapped, however small
		defer index.MapEvery()()
		differential(t)
	})
	t.Run("racy rule alone", func(t *testing.T) { // as on tmpfs, NFS, …
		defer index.NoFine()()
		differential(t)
	})
}

func differential(t *testing.T) {
	f := newFixture(t, 1, 120)
	f.check("cold")
	f.check("warm")
	ix := f.indexFile()
	os.Remove(ix)
	f.check("index deleted")
	b, _ := os.ReadFile(ix)
	os.WriteFile(ix, b[:len(b)/2], 0o600)
	f.check("index truncated")
	os.WriteFile(ix, append([]byte("procedures-index 0\n"), b[19:]...), 0o600)
	f.check("index of an old version")
	os.WriteFile(ix, []byte("garbage\x00\xff"), 0o600)
	f.check("garbage index")
	for i := range 40 {
		what := f.edit()
		f.check(fmt.Sprintf("edit %d (%s)", i, what))
	}
}

// An edit within the same second as the index write, of the same size and
// with the mtime put back, is still seen (the racy-clean rule: an entry not
// strictly older than the index write's second is re-read).
func TestDifferentialRacyEdit(t *testing.T) {
	t.Run("fine", func(t *testing.T) { differentialRacyEdit(t) })
	t.Run("racy rule alone", func(t *testing.T) {
		defer index.NoFine()()
		differentialRacyEdit(t)
	})
}

func differentialRacyEdit(t *testing.T) {
	f := newFixture(t, 2, 30)
	for i := range 20 {
		f.check(fmt.Sprintf("round %d", i))
		for _, p := range f.files() {
			fi, err := os.Lstat(p)
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
			b, _ := os.ReadFile(p)
			nb := bytes.Replace(b, []byte("decision"), []byte("solution"), 1)
			if bytes.Equal(nb, b) {
				nb = bytes.Replace(b, []byte("solution"), []byte("decision"), 1)
			}
			os.WriteFile(p, nb, 0o644)
			os.Chtimes(p, fi.ModTime(), fi.ModTime())
		}
	}
}

// Concurrent queries and writers: nothing fails, and once the writers stop
// the index they left gives the same bytes as no index.
func TestDifferentialConcurrent(t *testing.T) {
	defer index.MapEvery()() // files replaced under the mappings of running queries
	f := newFixture(t, 3, 80)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for g := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 15 {
				q := queries[(g+i)%len(queries)]
				f.run(q, false)
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 30 {
			mu.Lock()
			f.edit()
			mu.Unlock()
			time.Sleep(time.Millisecond)
		}
	}()
	wg.Wait()
	f.check("after concurrent writers")
	f.check("again")
}

// The search index is held to the same rules: believed when trusted (so
// the check can fail), refused when others may write it or it is a symlink.
func TestHostileSearchIndex(t *testing.T) {
	f := newFixture(t, 9, 30)
	f.age()
	f.check("cold")
	ix := f.searchIndexFile()
	q := []string{"--search", "record alpha", "--kind", "decision"}
	if err := index.Poison(ix, "decision"); err != nil {
		t.Fatal(err)
	}
	if f.run(q, false) == f.run(q, true) {
		t.Fatal("a poisoned search index made no difference; the checks below prove nothing")
	}
	os.Remove(ix)
	f.check("rebuilt")
	if err := index.CorruptPostings(ix); err != nil {
		t.Fatal(err)
	}
	f.check("corrupt postings") // found when read: the search runs again without them
	f.check("rebuilt after corrupt postings")
	index.Poison(ix, "decision")
	os.Chmod(ix, 0o620)
	f.check("group-writable search index")
	target := filepath.Join(t.TempDir(), "elsewhere")
	b, _ := os.ReadFile(ix)
	os.WriteFile(target, b, 0o600)
	index.Poison(target, "decision")
	os.Remove(ix)
	os.Symlink(target, ix)
	f.check("symlinked search index")
	if fi, err := os.Lstat(ix); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("the symlink was not replaced by a regular index: %v %v", fi, err)
	}
}

// A hostile index is ignored and replaced, never followed: a symlink, a
// group- or other-writable file, another user's file. Each is a poisoned
// index (every kind rewritten) that would change the answers if believed.
func TestHostileIndex(t *testing.T) {
	f := newFixture(t, 4, 30)
	f.age() // no entry is racy
	f.check("cold")
	ix := f.indexFile()
	// The poisoned index itself, trusted, is believed: the test can fail.
	if err := index.Poison(ix, "decision"); err != nil {
		t.Fatal(err)
	}
	if f.run(queries[0], false) == f.run(queries[0], true) {
		t.Fatal("a poisoned index made no difference; the checks below prove nothing")
	}
	os.Remove(ix)
	f.check("rebuilt")
	// One byte flipped inside a kind: the checksum refuses the file.
	b, _ := os.ReadFile(ix)
	if i := bytes.Index(b, []byte("\x08decision")); i >= 0 { // a kind, length 8
		b[i+8] = 'x'
	} else {
		t.Fatal("no kind decision in the index")
	}
	os.WriteFile(ix, b, 0o600)
	f.check("one byte flipped")

	for _, c := range []struct {
		name  string
		spoil func() error
	}{
		{"group-writable", func() error { return os.Chmod(ix, 0o620) }},
		{"other-writable", func() error { return os.Chmod(ix, 0o602) }},
		{"another user's", func() error {
			if os.Geteuid() != 0 {
				t.Log("not root: cannot chown to another user")
				return nil
			}
			return os.Chown(ix, 12345, 12345)
		}},
	} {
		f.check("before " + c.name)
		if err := index.Poison(ix, "decision"); err != nil {
			t.Fatal(err)
		}
		if err := c.spoil(); err != nil {
			t.Fatal(err)
		}
		f.check(c.name + " index")
		fi, _ := os.Lstat(ix)
		if fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s: the index was kept (mode %v)", c.name, fi.Mode())
		}
	}

	// A symlink to a file elsewhere: not followed, not written through.
	target := filepath.Join(t.TempDir(), "elsewhere")
	b, _ = os.ReadFile(ix)
	os.WriteFile(target, b, 0o600)
	if err := index.Poison(target, "decision"); err != nil {
		t.Fatal(err)
	}
	poisoned, _ := os.ReadFile(target)
	os.Remove(ix)
	os.Symlink(target, ix)
	f.check("symlinked index")
	if b, _ := os.ReadFile(target); !bytes.Equal(b, poisoned) {
		t.Fatal("the symlink's target was written")
	}
	if fi, err := os.Lstat(ix); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("the symlink was not replaced by a regular index: %v %v", fi, err)
	}

	// An untrusted index directory: the index is neither read nor written.
	os.Chmod(filepath.Dir(ix), 0o777)
	if err := index.Poison(ix, "decision"); err != nil {
		t.Fatal(err)
	}
	f.check("other-writable index directory")
	os.Chmod(filepath.Dir(ix), 0o700)
}

func TestDisabled(t *testing.T) {
	for v, want := range map[string]bool{"": false, "0": false, "1": true, "yes": true} {
		if got := config.IndexFrom(func(string) string { return v }).Off; got != want {
			t.Errorf("PROCEDURES_NO_INDEX=%q: disabled %v, want %v", v, got, want)
		}
	}
	f := newFixture(t, 5, 10)
	f.run([]string{"--kind", "decision"}, true)
	if m, _ := filepath.Glob(filepath.Join(f.cache, "procedures", "*")); len(m) != 0 {
		t.Errorf("PROCEDURES_NO_INDEX=1 wrote %q", m)
	}
}

// A warm query that changed nothing leaves the index file alone; one that
// saw a file deleted drops its entry.
func TestWarmQueryDoesNotRewrite(t *testing.T) {
	f := newFixture(t, 6, 20)
	f.age()
	f.run(queries[0], false)
	ix := f.indexFile()
	before, _ := os.Stat(ix)
	f.run(queries[1], false)
	after, _ := os.Stat(ix)
	if !os.SameFile(before, after) {
		t.Error("a warm query with nothing changed rewrote the index")
	}
	os.Remove(f.files()[0])
	f.check("a file deleted")
	if after2, _ := os.Stat(ix); os.SameFile(after, after2) {
		t.Error("a deleted file did not update the index")
	}
}

// The directory listings: a warm query lists the stores from the index
// (proven by an index that hides a file), and every change to the tree of
// directories is seen, whether the changed directory's mtime is recent
// (racy) or put an hour back (a stat that differs).
func TestDirectoryListings(t *testing.T) {
	f := newFixture(t, 7, 60)
	f.age()
	f.check("cold")
	ix := f.indexFile()
	if n, err := index.Listings(ix); err != nil || n < len(dirs) {
		t.Fatalf("the index holds %d listings (%v), want one for each of the %d directories at least", n, err, len(dirs))
	}
	// A listing that is believed: the file it leaves out is not listed.
	hidden := filepath.Base(f.files()[0])
	if err := index.HideFile(ix, hidden); err != nil {
		t.Fatal(err)
	}
	differs := false
	for _, q := range append(queries, []string{"--kind", "solution"}, []string{"--kind", "procedure"}) {
		differs = differs || f.run(q, false) != f.run(q, true)
	}
	if !differs {
		t.Fatalf("an index hiding %s made no difference; the listings are not used", hidden)
	}
	os.Remove(ix)
	f.check("rebuilt")
	// A listing naming a subdirectory that is not there (or not a
	// directory) is not believed: the stores are listed again.
	if err := index.EditListings(ix, func(subdirs, files []string) ([]string, []string) {
		return append(subdirs, "gone"), append(files[:len(files):len(files)], "gone.md")
	}); err != nil {
		t.Fatal(err)
	}
	f.check("a listing naming what is not there")
	os.Remove(ix)
	f.check("rebuilt again")

	sub := filepath.Join(f.root, "references", "decisions", "sub")
	edits := []struct {
		name string
		do   func()
	}{
		{"new file", func() { f.add() }},
		{"new subdirectory", func() {
			os.MkdirAll(sub, 0o755)
			os.WriteFile(filepath.Join(sub, "s1.md"), []byte(record(f.r, 9001)), 0o644)
		}},
		{"file in a subdirectory", func() {
			os.WriteFile(filepath.Join(sub, "s2.md"), []byte(record(f.r, 9002)), 0o644)
		}},
		{"subdirectory renamed", func() {
			os.Rename(sub, sub+"2")
			sub += "2"
		}},
		{"subdirectory archived", func() {
			os.Rename(sub, sub+"_archived")
			sub += "_archived"
		}},
		{"subdirectory back", func() {
			old := sub
			sub = strings.TrimSuffix(sub, "_archived")
			os.Rename(old, sub)
		}},
		{"INDEX.md and a non-record", func() {
			os.WriteFile(filepath.Join(sub, "INDEX.md"), []byte(record(f.r, 9003)), 0o644)
			os.WriteFile(filepath.Join(sub, "notes.txt"), []byte(record(f.r, 9004)), 0o644)
		}},
		{"subdirectory swapped for a symlink to a directory", func() {
			os.Rename(sub, sub+".real")
			os.Symlink(sub+".real", sub)
		}},
		{"a file becomes a directory", func() {
			p := f.files()[1]
			os.Remove(p)
			os.MkdirAll(p, 0o755)
			os.WriteFile(filepath.Join(p, "inner.md"), []byte(record(f.r, 9005)), 0o644)
		}},
		{"a file becomes a symlink", func() {
			fs := f.files()
			os.Remove(fs[2])
			os.Symlink(fs[3], fs[2])
		}},
		{"subdirectory removed", func() { os.RemoveAll(sub + ".real"); os.Remove(sub) }},
		{"a store removed", func() { os.RemoveAll(filepath.Join(f.root, "plans")) }},
		{"a store back", func() { os.MkdirAll(filepath.Join(f.root, "plans"), 0o755); f.add() }},
	}
	for _, e := range edits {
		for _, aged := range []bool{false, true} {
			f.check("before " + e.name)
			e.do()
			if aged {
				f.age()
			}
			f.check(fmt.Sprintf("%s (aged %v)", e.name, aged))
			f.check(fmt.Sprintf("%s (aged %v), again", e.name, aged))
		}
	}
}
