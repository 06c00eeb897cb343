package writerindex_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/cachefile"
	"github.com/procedures-go/procedures/internal/cachefile/cachefiletest"
	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/cli/enforcefrontmatter"
	"github.com/procedures-go/procedures/internal/cli/logrecord"
	"github.com/procedures-go/procedures/internal/cli/queryrecords"
	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/recordwrite"
	"github.com/procedures-go/procedures/internal/writerindex"
)

// writerRecord is a random record for the writers: ids and links drawn
// from a small set, so that duplicates and dangling links are common.
func writerRecord(r *rand.Rand) string {
	switch r.IntN(12) {
	case 0:
		return "no frontmatter\n"
	case 1:
		return "---\nid: [unclosed\nkind: decision\nlinks: rec-1, rec-2\n---\n# bad yaml\n"
	case 2:
		return "---\r\nid: rec-" + fmt.Sprint(r.IntN(30)) + "\r\nkind: decision\r\n---\r\n# crlf\r\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "---\nid: rec-%d\nkind: decision\ndate: 2026-01-01\nkeywords: [a]\nstatus: active\nlinks:\n", r.IntN(30))
	for range r.IntN(3) {
		fmt.Fprintf(&b, "  - rec-%d\n", r.IntN(40))
	}
	b.WriteString("---\n# body\n")
	return b.String()
}

// dirs are the stores the records are made in.
var dirs = []string{"references/decisions", "references/solutions", "references/procedures", "plans"}

// wfixture is a corpus of random records for the writers, and a cache
// directory of its own.
type wfixture struct {
	t     *testing.T
	root  string
	cache string
	r     *rand.Rand
	n     int
}

func newWFixture(t *testing.T, seed uint64, n int) *wfixture {
	f := &wfixture{t: t, root: t.TempDir(), cache: t.TempDir(), r: rand.New(rand.NewPCG(seed, 2))}
	for range n {
		f.add()
	}
	return f
}

func (f *wfixture) add() string {
	f.n++
	dir := filepath.Join(f.root, dirs[f.r.IntN(len(dirs))])
	if f.r.IntN(8) == 0 {
		dir = filepath.Join(dir, fmt.Sprintf("sub%d", f.r.IntN(3)))
	}
	os.MkdirAll(dir, 0o755)
	p := filepath.Join(dir, fmt.Sprintf("w%d.md", f.n))
	os.WriteFile(p, []byte(writerRecord(f.r)), 0o644)
	return p
}

func (f *wfixture) env(noIndex bool) map[string]string {
	env := map[string]string{"KNOWLEDGE_ROOT": f.root, "CODEX_ROOT": f.root,
		"QUERY_RECORDS_ROOT": f.root, "XDG_CACHE_HOME": f.cache, "HOME": f.cache}
	if noIndex {
		env["PROCEDURES_NO_INDEX"] = "1"
	}
	return env
}

// enforce runs enforce-frontmatter on a Write of file.
func (f *wfixture) enforce(file string, noIndex bool) string {
	payload := fmt.Sprintf(`{"tool_name":"Write","tool_input":{"file_path":%q}}`, file)
	var out, errb bytes.Buffer
	code := enforcefrontmatter.Main(nil, strings.NewReader(payload), &out, &errb, cli.MapEnv(f.env(noIndex)))
	return fmt.Sprintf("exit %d\n%s%s", code, out.String(), errb.String())
}

// lint is log-record's lint of content as file, through the index or not.
func (f *wfixture) lint(file string, content []byte, noIndex bool) string {
	var rep recordwrite.LintReport
	if w := writerindex.Open(f.root, optionsOf(f.env(noIndex))); w != nil {
		rep = recordwrite.LintWith(f.root, file, content, w.Resolve)
		w.Save()
	} else {
		rep = recordwrite.Lint(f.root, file, content)
	}
	return fmt.Sprintf("failed %v\n%s", rep.Failed, strings.Join(rep.Lines, "\n"))
}

func (f *wfixture) query() {
	f.run([]string{"--kind", "decision"}, false)
}

// run runs query-records with args, through the index or not.
func (f *wfixture) run(args []string, noIndex bool) {
	var out, errb bytes.Buffer
	queryrecords.Main(args, nil, &out, &errb, cli.MapEnv(f.env(noIndex)))
}

// age ages the corpus (see cachefiletest.Age).
func (f *wfixture) age() { cachefiletest.Age(f.root) }

// files are the corpus's .md files.
func (f *wfixture) files() []string { return cachefiletest.Files(f.root) }

// check compares the writers' verdicts with the index and without on a
// few targets: enforce-frontmatter on corpus files, the lint on new content.
func (f *wfixture) check(stage string) {
	f.t.Helper()
	fs := f.files()
	for range 4 {
		p := fs[f.r.IntN(len(fs))]
		want := f.enforce(p, true)
		if got := f.enforce(p, false); got != want {
			f.t.Fatalf("%s: enforce-frontmatter on %s with the index:\n%s\nwithout:\n%s", stage, p, got, want)
		}
	}
	for range 2 {
		c := []byte(writerRecord(f.r))
		file := filepath.Join(f.root, "references/decisions/new.md")
		want := f.lint(file, c, true)
		if got := f.lint(file, c, false); got != want {
			f.t.Fatalf("%s: the lint of\n%s\nwith the index:\n%s\nwithout:\n%s", stage, c, got, want)
		}
	}
}

func (f *wfixture) writersIndex() string {
	m, _ := filepath.Glob(filepath.Join(f.cache, "procedures", "*.wdx"))
	if len(m) != 1 {
		f.t.Fatalf("want one writers' index, have %q", m)
	}
	return m[0]
}

// replace rewrites p through a new file renamed over it (a new inode).
func replace(p string, b []byte) {
	tmp := p + ".tmp"
	os.WriteFile(tmp, b, 0o644)
	os.Rename(tmp, p)
}

// wedit makes one random change; inPlace reports an edit that keeps the
// file's inode (the documented window: a query must see it first).
func (f *wfixture) wedit() (what string, inPlace bool) {
	fs := f.files()
	p := fs[f.r.IntN(len(fs))]
	switch f.r.IntN(9) {
	case 0:
		os.WriteFile(p, []byte(writerRecord(f.r)), 0o644)
		return "content in place", true
	case 1:
		b, _ := os.ReadFile(p)
		fi, _ := os.Stat(p)
		nb := bytes.Replace(b, []byte("rec-1"), []byte("rec-2"), 1)
		os.WriteFile(p, nb, 0o644)
		os.Chtimes(p, fi.ModTime(), fi.ModTime())
		return "same-size edit in place, mtime kept", true
	case 2:
		replace(p, []byte(writerRecord(f.r)))
		return "content replaced (rename over)", false
	case 3:
		os.Rename(p, filepath.Join(filepath.Dir(p), fmt.Sprintf("moved%d.md", f.r.IntN(1e6))))
		return "rename", false
	case 4:
		os.Remove(p)
		return "delete", false
	case 5:
		f.add()
		return "new file", false
	case 6:
		other := fs[f.r.IntN(len(fs))]
		os.Remove(p)
		os.Symlink(other, p)
		return "symlink swap", false
	case 7: // a whole subdirectory moves, or a new one appears
		d := filepath.Dir(p)
		if filepath.Base(d) != "sub0" && filepath.Base(d) != "sub1" && filepath.Base(d) != "sub2" {
			f.add()
			return "new file", false
		}
		os.Rename(d, d+fmt.Sprintf("x%d", f.r.IntN(1e6)))
		return "subdirectory renamed", false
	default: // edits within the index write's second: the racy rule
		replace(p, []byte(writerRecord(f.r)))
		now := time.Now()
		os.Chtimes(p, now, now)
		return "replaced within the second", false
	}
}

// The writers' verdicts through the index equal those without it: cold,
// warm, index deleted, truncated, of an old version, garbage, and after
// random edits (in-place edits are followed by a query, the documented
// window; every other change is checked at once).
func TestWritersDifferential(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the writers' index is kept on Linux only")
	}
	f := newWFixture(t, 11, 150)
	f.check("cold")
	f.check("warm")
	ix := f.writersIndex()
	os.Remove(ix)
	f.check("index deleted")
	f.check("rebuilt")
	b, _ := os.ReadFile(ix)
	os.WriteFile(ix, b[:len(b)/2], 0o600)
	f.check("index truncated")
	b, _ = os.ReadFile(ix)
	os.WriteFile(ix, append([]byte("procedures-writers 0\n"), b[len("procedures-writers 2\n"):]...), 0o600)
	f.check("index of an old version")
	os.WriteFile(ix, []byte("garbage\x00\xff"), 0o600)
	f.check("garbage index")
	for i := range 60 {
		what, inPlace := f.wedit()
		if inPlace {
			f.query()
		}
		f.check(fmt.Sprintf("edit %d (%s)", i, what))
	}
}

// The window, exactly: a file edited in place (same name, same inode) to
// declare an id it did not have is not seen by a writer until a query has
// stat-ed it; a new file, a rename, a delete, and an edit that replaces the
// file are seen at once.
func TestWritersWindow(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the writers' index is kept on Linux only")
	}
	f := newWFixture(t, 12, 0)
	dec := filepath.Join(f.root, "references/decisions")
	os.MkdirAll(dec, 0o755)
	rec := func(id string, links ...string) []byte {
		s := "---\nid: " + id + "\nkind: decision\ndate: 2026-01-01\nkeywords: [a]\nstatus: active\nlinks:"
		if len(links) == 0 {
			s += " []"
		}
		for _, l := range links {
			s += "\n  - " + l
		}
		return []byte(s + "\n---\n# r\n")
	}
	target := filepath.Join(dec, "target.md")
	os.WriteFile(target, rec("dup", "linked"), 0o644)
	other := filepath.Join(dec, "other.md")
	os.WriteFile(other, rec("other"), 0o644)
	same := func(stage string) {
		t.Helper()
		want := f.enforce(target, true)
		if got := f.enforce(target, false); got != want {
			t.Fatalf("%s: with the index:\n%s\nwithout:\n%s", stage, got, want)
		}
	}
	// Older than the index write, so that nothing is re-read as racy.
	age := func(p string) {
		old := time.Now().Add(-time.Hour)
		os.Chtimes(p, old, old)
		os.Chtimes(dec, old, old)
	}
	age(other)
	same("cold: link unresolved")
	if !strings.Contains(f.enforce(target, true), "'linked' resolves to no record") {
		t.Fatal("the fixture does not report the dangling link; the checks below prove nothing")
	}

	// The window: other.md now declares "dup" in place.
	os.WriteFile(other, rec("dup"), 0o644)
	age(other)
	got, want := f.enforce(target, false), f.enforce(target, true)
	if got == want || !strings.Contains(want, "duplicate id 'dup'") || strings.Contains(got, "duplicate id") {
		t.Fatalf("in-place edit: want the index to miss the new duplicate (the documented window):\nwith:\n%s\nwithout:\n%s", got, want)
	}
	f.query()
	same("in-place edit, after a query")
	// An id a consulted record loses in place is seen at once: the
	// records declaring the ids asked about are stat-ed.
	os.WriteFile(other, rec("other"), 0o644)
	age(other)
	same("in-place edit dropping the duplicate")
	os.WriteFile(other, rec("dup"), 0o644)
	age(other)
	f.query()
	same("the duplicate back, after a query")

	// No wider: a new file, a rename, a delete, a replacement, a new
	// subdirectory are seen at once, with no query between.
	linked := filepath.Join(dec, "linked.md")
	os.WriteFile(linked, rec("linked"), 0o644)
	same("new file declaring the link target")
	if strings.Contains(f.enforce(target, false), "'linked' resolves") {
		t.Fatal("the new link target was not seen")
	}
	os.Rename(linked, filepath.Join(dec, "linked2.md"))
	same("renamed")
	os.Remove(filepath.Join(dec, "linked2.md"))
	same("deleted: link unresolved again")
	dup3 := filepath.Join(dec, "dup3.md")
	os.WriteFile(dup3, rec("dup"), 0o644)
	same("a new file with a duplicate id")
	replace(other, rec("other"))
	same("replaced by rename: the duplicate gone")
	os.MkdirAll(filepath.Join(dec, "sub"), 0o755)
	os.WriteFile(filepath.Join(dec, "sub", "linked.md"), rec("linked"), 0o644)
	same("a new subdirectory")
	os.RemoveAll(filepath.Join(dec, "sub"))
	same("a subdirectory deleted")

	// log-record sees the same: its lint through the index and its
	// write updates the index.
	var errb bytes.Buffer
	code := logrecord.Main([]string{"decision", "--slug", "x", "--title", "T", "--keywords", "a",
		"--links", "other", "--summary", "s", "--date", "2026-01-02"}, strings.NewReader(""), &bytes.Buffer{}, &errb, cli.MapEnv(f.env(false)))
	if code != 0 {
		t.Fatalf("log-record: %d %s", code, errb.String())
	}
	same("after log-record")
}

// An index another user could have written is never believed: the trust
// rules of the query index apply to the writers' index.
func TestWritersHostileIndex(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the writers' index is kept on Linux only")
	}
	f := newWFixture(t, 13, 40)
	old := time.Now().Add(-time.Hour)
	for _, p := range f.files() {
		os.Chtimes(p, old, old)
	}
	f.check("cold")
	ix := f.writersIndex()
	if err := writerindex.PoisonWriters(ix); err != nil {
		t.Fatal(err)
	}
	fs := f.files()
	differs := false
	for _, p := range fs {
		differs = differs || f.enforce(p, false) != f.enforce(p, true)
	}
	if !differs {
		t.Fatal("a poisoned writers' index made no difference; the checks below prove nothing")
	}
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
		os.Remove(ix)
		f.check("rebuilt before " + c.name)
		if err := writerindex.PoisonWriters(ix); err != nil {
			t.Fatal(err)
		}
		if err := c.spoil(); err != nil {
			t.Fatal(err)
		}
		for _, p := range fs {
			if got, want := f.enforce(p, false), f.enforce(p, true); got != want {
				t.Fatalf("%s index believed:\n%s\nwant\n%s", c.name, got, want)
			}
		}
	}
	// A symlinked index is not followed.
	os.Remove(ix)
	f.check("rebuilt")
	target := filepath.Join(t.TempDir(), "elsewhere")
	b, _ := os.ReadFile(ix)
	os.WriteFile(target, b, 0o600)
	writerindex.PoisonWriters(target)
	os.Remove(ix)
	os.Symlink(target, ix)
	for _, p := range fs {
		if got, want := f.enforce(p, false), f.enforce(p, true); got != want {
			t.Fatalf("symlinked index believed:\n%s\nwant\n%s", got, want)
		}
	}
	if fi, err := os.Lstat(ix); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("the symlink was not replaced: %v %v", fi, err)
	}
}

// PROCEDURES_NO_INDEX=1 keeps the writers from writing any index.
func TestWritersDisabled(t *testing.T) {
	f := newWFixture(t, 14, 10)
	f.enforce(f.files()[0], true)
	f.lint(filepath.Join(f.root, "references/decisions/new.md"), []byte(writerRecord(f.r)), true)
	if m, _ := filepath.Glob(filepath.Join(f.cache, "procedures", "*")); len(m) != 0 {
		t.Errorf("PROCEDURES_NO_INDEX=1 wrote %q", m)
	}
}

// Writers, queries and edits at once: nothing fails, and once the edits
// stop the writers' index they left gives the verdicts of no index.
func TestWritersConcurrent(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the writers' index is kept on Linux only")
	}
	f := newWFixture(t, 15, 80)
	fs := f.files()
	var wg sync.WaitGroup
	for g := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 15 {
				if g == 0 && i%3 == 0 {
					f.run([]string{"--kind", "decision"}, false)
					continue
				}
				f.enforce(fs[(g*15+i)%len(fs)], false)
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 30 {
			f.wedit()
			time.Sleep(time.Millisecond)
		}
	}()
	wg.Wait()
	f.query() // the in-place edits: seen after a query
	f.check("after concurrent writers")
	f.check("again")
}

// optionsOf is the index setting a command reads from env.
func optionsOf(env map[string]string) writerindex.Options {
	s := config.IndexFrom(cli.MapEnv(env).Get)
	return writerindex.Options{Off: s.Off, Dir: s.Dir}
}

// A record created in a store directory in the second a writer listed it,
// after the listing, leaves the directory's stat as it was on a file system
// of one-second times: the next writer still lists the directory again
// (its listing was stored smudged) and refuses the duplicate id.
func TestRacyCreateInTheSecondOfTheListing(t *testing.T) {
	f := newWFixture(t, 12, 20)
	stamp := time.Unix(1_800_000_000, 0)
	restore := cachefile.OneSecond(stamp, stamp.Add(300*time.Millisecond))
	defer restore()
	dec := filepath.Join(f.root, "references/decisions")
	os.MkdirAll(dec, 0o755)
	first := filepath.Join(dec, "first.md")
	os.WriteFile(first, []byte("---\nid: first\nkind: decision\ndate: 2026-01-01\nkeywords: [a]\nstatus: active\nlinks: []\n---\n# f\n"), 0o644)
	f.enforce(first, false) // lists the directory in the second of its stamp
	os.WriteFile(filepath.Join(dec, "dup-a.md"), []byte("---\nid: dup\nkind: decision\ndate: 2026-01-01\nkeywords: [a]\nstatus: active\nlinks: []\n---\n# a\n"), 0o644)
	cachefile.OneSecond(stamp, stamp.Add(time.Hour))
	content := []byte("---\nid: dup\nkind: decision\ndate: 2026-01-01\nkeywords: [a]\nstatus: active\nlinks: []\n---\n# b\n")
	file := filepath.Join(dec, "dup-b.md")
	want := f.lint(file, content, true)
	if got := f.lint(file, content, false); got != want {
		t.Fatalf("the lint of a duplicate id with the index:\n%s\nwithout:\n%s", got, want)
	}
}

// An id changed in place, same size, its mtime put back (only the ctime
// moves), is seen by a writer once any command has read the file again: a
// query through the index, query-records --cat, or enforce-frontmatter
// checking it; the writers learn what it read, in the same run.
func TestWritersSeeAnIDChangedInPlaceAfterAQuery(t *testing.T) {
	t.Run("a query", func(t *testing.T) {
		idChangedInPlace(t, func(f *wfixture, rel string) { f.query() })
	})
	t.Run("--cat", func(t *testing.T) {
		idChangedInPlace(t, func(f *wfixture, rel string) { f.run([]string{"--cat", rel}, false) })
	})
	t.Run("enforce-frontmatter on it", func(t *testing.T) {
		idChangedInPlace(t, func(f *wfixture, rel string) { f.enforce(filepath.Join(f.root, rel), false) })
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
