package records

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/corpus"
	"github.com/procedures-go/procedures/internal/frontmatter"
	"github.com/procedures-go/procedures/internal/proctest"
	"github.com/procedures-go/procedures/internal/recall"
)

// mkTree writes files under a new temporary root (see proctest.Tree).
func mkTree(t testing.TB, files map[string]string) string { return proctest.Tree(t, files) }

func rec(id, kind, keywords string) string {
	return "---\nid: " + id + "\nkind: " + kind + "\nkeywords: " + keywords + "\nlinks: {}\n---\n# " + id + "\n"
}

// The zero Query means the documented default floor (what the commands use),
// a negative RelRatio no floor, and any other value itself: the facade gives
// the engine's results for each.
func TestQueryRelRatio(t *testing.T) {
	files := map[string]string{}
	// One strong match and weaker ones of the same kind, so the floor cuts.
	files["references/decisions/a.md"] = rec("a", "decision", "[alpha, beta, gamma]")
	files["references/decisions/b.md"] = rec("b", "decision", "[alpha, x1, x2, x3, x4, x5, x6, x7, x8]")
	files["references/decisions/c.md"] = rec("c", "decision", "[beta, gamma, alpha, delta]")
	for i := range 6 {
		files["plans/p"+string(rune('0'+i))+".md"] = rec("p", "plan", "[other]")
	}
	root := mkTree(t, files)
	c, err := Open(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ec, err := corpus.Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	ids := func(rs []Record) (out []string) {
		for _, r := range rs {
			out = append(out, r.ID)
		}
		return out
	}
	eids := func(q corpus.Query) []string {
		rs, err := ec.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		var out []Record
		for _, r := range rs {
			out = append(out, Record(r))
		}
		return ids(out)
	}
	for _, tc := range []struct {
		rel  float64
		want float64
	}{{0, corpus.DefaultRelRatio}, {-1, 0}, {0.9, 0.9}} {
		got, err := c.Query(Query{Keyword: "alpha beta gamma", RelRatio: tc.rel})
		if err != nil {
			t.Fatal(err)
		}
		want := eids(corpus.Query{Keyword: "alpha beta gamma", RelRatio: tc.want})
		if !reflect.DeepEqual(ids(got), want) {
			t.Errorf("RelRatio %v: %v, engine at %v gives %v", tc.rel, ids(got), tc.want, want)
		}
	}
	// The cases differ, so the test can tell the meanings apart.
	if a, b := eids(corpus.Query{Keyword: "alpha beta gamma", RelRatio: 0.3}), eids(corpus.Query{Keyword: "alpha beta gamma"}); reflect.DeepEqual(a, b) {
		t.Fatalf("fixture does not separate the floor from none: %v", a)
	}
	if DefaultRelRatio != corpus.DefaultRelRatio {
		t.Errorf("DefaultRelRatio %v, the commands' %v", DefaultRelRatio, corpus.DefaultRelRatio)
	}
	q := corpus.NewQuery()
	q.Keyword = "alpha beta gamma"
	if got, _ := c.Query(Query{Keyword: "alpha beta gamma"}); !reflect.DeepEqual(ids(got), eids(q)) {
		t.Errorf("Query{} is not NewQuery(): %v vs %v", ids(got), eids(q))
	}
}

// The facade's errors read exactly as the engine's (the commands print the
// engine's), and their zero values print without panicking.
func TestErrorText(t *testing.T) {
	inner := &fs.PathError{Op: "open", Path: "x", Err: fs.ErrPermission}
	for _, tc := range []struct{ pub, eng error }{
		{&NoRootError{Root: "/r", Err: inner}, &corpus.NoRootError{Root: "/r", Err: inner}},
		{&ScanError{Path: "p.md", Err: inner}, &corpus.ScanError{Path: "p.md", Err: inner}},
		{&TooLargeError{Path: "p.md", Size: 1 << 30}, &corpus.TooLargeError{Path: "p.md", Size: 1 << 30}},
		{&NoTokenError{Keyword: "a"}, &corpus.NoTokenError{Keyword: "a"}},
		{&CatError{Refs: []string{"x", "y"}}, &corpus.CatError{Refs: []string{"x", "y"}}},
		{&RecallPartsError{Words: 70}, &recall.PartsError{Words: 70}},
		{&YAMLError{Line: 3, Msg: "m"}, &frontmatter.YAMLError{Line: 3, Msg: "m"}},
	} {
		if tc.pub.Error() != tc.eng.Error() {
			t.Errorf("%T: %q, engine %q", tc.pub, tc.pub, tc.eng)
		}
		if got := fromEngine(tc.eng); reflect.TypeOf(got) != reflect.TypeOf(tc.pub) && tc.eng != error(nil) {
			if _, yaml := tc.eng.(*frontmatter.YAMLError); !yaml {
				t.Errorf("fromEngine(%T) = %T", tc.eng, got)
			}
		}
	}
	for _, e := range []error{&NoRootError{}, &ScanError{}, &TooLargeError{}, &NoTokenError{}, &CatError{}, &RecallPartsError{}, &YAMLError{}} {
		_ = e.Error()
	}
	// Wrapped errors convert too, and keep what they wrap.
	err := fromEngine(&corpus.ScanError{Path: "p.md", Err: &corpus.TooLargeError{Path: "p.md", Size: 5}})
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Size != 5 {
		t.Errorf("wrapped TooLargeError lost: %#v", err)
	}
	err = fromEngine(&corpus.ScanError{Path: "p.md", Err: inner})
	if !errors.Is(err, fs.ErrPermission) {
		t.Errorf("ScanError does not unwrap: %v", err)
	}
}

// Records yields every file in corpus order; one that cannot be read (here
// removed since the scan)
// yields its path and a *ScanError, and the iteration goes on.
func TestRecordsUnreadable(t *testing.T) {
	root := mkTree(t, map[string]string{
		"plans/a.md": rec("a", "plan", "[x]"),
		"plans/b.md": rec("b", "plan", "[x]"),
		"plans/c.md": rec("c", "plan", "[x]"),
	})
	c, _ := Open(root, Options{})
	if err := os.Remove(filepath.Join(root, "plans/b.md")); err != nil { // removed after the scan
		t.Fatal(err)
	}
	var got []string
	for r, err := range c.Records() {
		var se *ScanError
		switch {
		case err == nil:
			got = append(got, r.ID)
		case errors.As(err, &se) && se.Path == r.Path && errors.Is(err, fs.ErrNotExist):
			got = append(got, "error:"+r.Path)
		default:
			t.Fatalf("%s: %v", r.Path, err)
		}
	}
	if strings.Join(got, " ") != "a error:plans/b.md c" {
		t.Errorf("got %q", got)
	}
	// Stopping early stops the reads.
	n := 0
	for range c.Records() {
		n++
		break
	}
	if n != 1 {
		t.Errorf("break ignored: %d", n)
	}
}

// Records reads what Query reads: the same fields for every record.
func TestRecordsMatchQuery(t *testing.T) {
	root := mkTree(t, map[string]string{
		"plans/a.md":                 rec("a", "plan", "[x, y]"),
		"plans/crlf.md":              strings.ReplaceAll(rec("crlf", "plan", "[z]"), "\n", "\r\n"),
		"plans/empty.md":             "",
		"references/decisions/d.md":  "---\nid: 'd q'\nkind: decision\nlinks: [a, b]\n---\n\n\n#  Spaced   title\n",
		"references/decisions/nf.md": "no frontmatter here\n",
	})
	c, _ := Open(root, Options{})
	all, err := c.Query(Query{})
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]Record{}
	for _, r := range all {
		byPath[r.Path] = r
	}
	n := 0
	for r, err := range c.Records() {
		if err != nil {
			t.Fatal(err)
		}
		if r.Path == "plans/empty.md" {
			continue // not part of a query's narrowed set
		}
		n++
		if !reflect.DeepEqual(r, byPath[r.Path]) {
			t.Errorf("%s: Records %+v, Query %+v", r.Path, r, byPath[r.Path])
		}
	}
	if n != len(all) {
		t.Errorf("Records yielded %d, Query %d", n, len(all))
	}
}
