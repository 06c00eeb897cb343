package corpus

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// workedExample is the corpus of the ranking's worked example.
var workedExample = map[string]string{
	"plans/p1.md":                rec("plan.p1", "plan", "", "Plan without keywords"),
	"references/decisions/d1.md": rec("dec.d1", "decision", "[alpha, beta]", "Decision one"),
	"references/decisions/d2.md": rec("dec.d2", "decision", "[gamma, w1, w2, w3, w4, w5]", "Decision two"),
	"references/solutions/s1.md": rec("sol.s1", "solution", "[gamma, w6, w7, w8, w9, w10]", "Solution one"),
	"references/solutions/s2.md": rec("sol.s2", "solution", "[Gamma]", "Solution two"),
}

func TestRankWorkedExample(t *testing.T) {
	c := openTree(t, workedExample)
	for _, tc := range []struct {
		name string
		q    Query
		want string
	}{
		{"default floor", Query{Keyword: "Alpha, BETA gamma!", RelRatio: DefaultRelRatio},
			"references/decisions/d1.md — Decision one\nreferences/solutions/s2.md — Solution two\nreferences/solutions/s1.md — Solution one\n"},
		{"no floor, kinds interleaved", Query{Keyword: "Alpha, BETA gamma!"},
			"references/decisions/d1.md — Decision one\nreferences/solutions/s2.md — Solution two\nreferences/decisions/d2.md — Decision two\nreferences/solutions/s1.md — Solution one\n"},
		{"limit after floor", Query{Keyword: "Alpha, BETA gamma!", RelRatio: DefaultRelRatio, Limit: 2},
			"references/decisions/d1.md — Decision one\nreferences/solutions/s2.md — Solution two\n"},
		{"kind narrows idf", Query{Keyword: "Alpha, BETA gamma!", RelRatio: DefaultRelRatio, Kind: "solution"},
			"references/solutions/s2.md — Solution two\nreferences/solutions/s1.md — Solution one\n"},
		{"ratio 0.2 drops d2", Query{Keyword: "Alpha, BETA gamma!", RelRatio: 0.2},
			"references/decisions/d1.md — Decision one\nreferences/solutions/s2.md — Solution two\nreferences/solutions/s1.md — Solution one\n"},
		{"ratio 0.1 keeps d2", Query{Keyword: "Alpha, BETA gamma!", RelRatio: 0.1},
			"references/decisions/d1.md — Decision one\nreferences/solutions/s2.md — Solution two\nreferences/decisions/d2.md — Decision two\nreferences/solutions/s1.md — Solution one\n"},
		{"ratio 5 drops all", Query{Keyword: "Alpha, BETA gamma!", RelRatio: 5}, ""},
		{"structural corpus order", Query{Kind: "decision"},
			"references/decisions/d1.md — Decision one\nreferences/decisions/d2.md — Decision two\n"},
	} {
		res, err := c.Query(tc.q)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := lines(res); got != tc.want {
			t.Errorf("%s:\ngot\n%swant\n%s", tc.name, got, tc.want)
		}
	}
	// The exact scores of the worked example (6 decimals) and the bit-identical tie.
	res, _ := c.Query(Query{Keyword: "Alpha, BETA gamma!"})
	want := map[string]float64{"d1": 3.049847, "s2": 0.658774, "d2": 0.423498, "s1": 0.423498}
	for _, r := range res {
		name := r.Path[len(r.Path)-5 : len(r.Path)-3]
		if round6(r.Score) != want[name] {
			t.Errorf("score of %s = %.9f, want %.6f", name, r.Score, want[name])
		}
	}
	// Bit for bit: idf and avgdl are the 6-decimal values (ln 4 -> 1.386294,
	// avgdl 3.000000), summed and normed in float64 as the ranking formula says.
	idfA, idfG, avgdl, dl2, dl1 := 1.386294, 0.538997, 3.0, 2.0, 1.0
	k1, b := 1.2, 0.5
	wantD1 := (idfA + idfA) * ((k1 + 1) / (k1*((1-b)+b*(dl2/avgdl)) + 1))
	wantS2 := idfG * ((k1 + 1) / (k1*((1-b)+b*(dl1/avgdl)) + 1))
	if res[0].Score != wantD1 || res[1].Score != wantS2 {
		t.Errorf("scores %v %v, want bit-identical %v %v", res[0].Score, res[1].Score, wantD1, wantS2)
	}
	if res[2].Score != res[3].Score {
		t.Errorf("d2 and s1 must tie bit for bit: %v != %v", res[2].Score, res[3].Score)
	}
}

func TestRankSecondExample(t *testing.T) {
	c := openTree(t, map[string]string{
		"references/decisions/sample-decision.md": rec("dec.sample-quokka", "decision", "[quokkadec, autonomy, delegation]", "Sample decision record"),
		"references/solutions/sample-fix.md":      rec("sol.sample-fix", "solution", "[autonomy, recipe, fixpattern]", "Sample solution"),
		"references/procedures/sample-proc.md":    rec("proc.sample", "procedure", "[procedurekw, workflow, steps]", "Sample procedure"),
		"references/principles/sample-princ.md":   rec("princ.sample", "principle", "[principlekw, design]", "Sample principle"),
	})
	res, err := c.Query(Query{Keyword: "quokkadec workflow design", RelRatio: DefaultRelRatio})
	if err != nil {
		t.Fatal(err)
	}
	want := "references/principles/sample-princ.md — Sample principle\n" +
		"references/decisions/sample-decision.md — Sample decision record\n" +
		"references/procedures/sample-proc.md — Sample procedure\n"
	if got := lines(res); got != want {
		t.Errorf("got\n%swant\n%s", got, want)
	}
	// The worked example prints 1.300716 for the principle; the formula it states gives
	// 2.2/2.036364*1.203973 = 1.300721 (the order is what the worked example pins).
	if round6(res[1].Score) != 1.174845 || res[1].Score != res[2].Score || res[0].Score <= res[1].Score {
		t.Errorf("scores %v %v", res[0].Score, res[1].Score)
	}
}

func TestQueryKindBucketsAreUnquoted(t *testing.T) {
	// kind: "decision" and kind: decision are one bucket, so the
	// weaker quoted-kind match is floored against the strong one.
	c := openTree(t, map[string]string{
		"references/decisions/a.md": rec("dec.a", "decision", "[rare]", "Strong"),
		"references/decisions/b.md": rec("dec.b", `"decision"`, "[common, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20]", "Weak"),
		"references/decisions/c.md": rec("dec.c", "decision", "[common]", "Other"),
		"references/decisions/d.md": rec("dec.d", "decision", "[filler]", "Filler"),
		"references/decisions/e.md": rec("dec.e", "decision", "[filler]", "Filler"),
	})
	res, err := c.Query(Query{Keyword: "rare common", RelRatio: DefaultRelRatio})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Path == "references/decisions/b.md" {
			t.Errorf("quoted-kind record kept in its own bucket: %s", lines(res))
		}
	}
}

func TestQueryFilters(t *testing.T) {
	c := openTree(t, map[string]string{
		"references/decisions/a.md":    rec("dec.a", "decision", "[x1]", "A", "project: langwatch/scenario"),
		"references/solutions/b.md":    rec("sol.b", "solution", "[x1]", "B", "project: \"a/b/c\""),
		"references/research/c.md":     rec("res.c", "research", "[x1]", "C", "project: plainname extra"),
		"references/research/d.md":     "---\nid: res.d\nkind: research\nlinks:\n  decisions: [dec.h]\n  scenario: sc.1\n---\n# D\n",
		"references/research/e.md":     "---\nid: \"quoted spaced\"\nkind: research\nlinks: {decisions: [dec.a]} # dec.m\n---\n# E\n",
		"references/research/f.md":     "---\nid: res.f\nkind: research\nlinks: [dec.q:extra]\n---\n# F\n",
		"references/research/g.md":     "---\nid: 'res.g' # c\nkind: research\nlinks: [\"dec.o dec.p\"]\n---\n# G\n",
		"references/research/h.md":     "---\nid: res.h\nkind: research\nlinks: {decisions:[dec.e]}\n---\n# H\n",
		"references/research/i.md":     "---\nid: dec.sample-quokk\\141\nkind: research\n---\n# I\n",
		"references/research/empty.md": "",
	})
	for _, tc := range []struct {
		q    Query
		want []string
	}{
		{Query{Project: "scenario"}, []string{"references/decisions/a.md"}},
		{Query{Project: "langwatch"}, nil},
		{Query{Project: "c"}, []string{"references/solutions/b.md"}},
		{Query{Project: "b/c"}, nil},
		{Query{Project: "plainname"}, []string{"references/research/c.md"}},
		{Query{LinksTo: "dec.h"}, []string{"references/research/d.md"}},
		{Query{LinksTo: "sc.1"}, []string{"references/research/d.md"}},
		{Query{LinksTo: "decisions:"}, nil},
		{Query{LinksTo: "decisions"}, nil},
		{Query{LinksTo: "dec.a"}, []string{"references/research/e.md"}},
		{Query{LinksTo: "dec.m"}, nil},
		{Query{LinksTo: "#"}, nil},
		{Query{LinksTo: "dec.q:extra"}, []string{"references/research/f.md"}},
		{Query{LinksTo: "dec.q"}, nil},
		{Query{LinksTo: "dec.o"}, []string{"references/research/g.md"}},
		{Query{LinksTo: "dec.e"}, []string{"references/research/h.md"}},
		{Query{ID: "quoted spaced"}, []string{"references/research/e.md"}},
		{Query{ID: `"quoted`}, nil},
		{Query{ID: "res.g"}, []string{"references/research/g.md"}},
		{Query{ID: "dec.sample-quokka"}, nil},
		{Query{ID: `dec.sample-quokk\141`}, []string{"references/research/i.md"}},
	} {
		res, err := c.Query(tc.q)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range res {
			got = append(got, r.Path)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%+v: got %q, want %q", tc.q, got, tc.want)
		}
	}
}

func TestQueryAllShortKeyword(t *testing.T) {
	c := openTree(t, workedExample)
	_, err := c.Query(Query{Keyword: "a b"})
	var ne *NoTokenError
	if !errors.As(err, &ne) || !errors.Is(err, ErrUsage) || ne.Keyword != "a b" {
		t.Fatalf("err = %v, want a *NoTokenError for \"a b\"", err)
	}
	if want := `keyword "a b" has no token of 2+ characters`; err.Error() != want {
		t.Errorf("Error() = %q, want %q", err.Error(), want)
	}
	// Compat quirk (kept): an empty narrowed set is a silent miss.
	if res, err := c.Query(Query{Keyword: "a", Kind: "nosuchkind"}); err != nil || res != nil {
		t.Errorf("empty narrowed set: %v %v", res, err)
	}
}

func TestQueryUnreadableFileFailsLoudly(t *testing.T) {
	files := map[string]string{
		"references/decisions/a.md": rec("dec.a", "decision", "[x1]", "A"),
		"references/research/z.md":  rec("res.z", "research", "[x1]", "Z"),
	}
	root := mkTree(t, files)
	stores, _ := allStores("")
	c, _ := Open(root, stores)
	// z.md cannot be read any more (it vanished after the scan listed it;
	// mode 000 would not stop a root test run). It is not a decision, yet
	// the query fails loudly (kept from upstream).
	if err := os.Remove(filepath.Join(root, "references/research/z.md")); err != nil {
		t.Fatal(err)
	}
	_, err := c.Query(Query{Kind: "decision"})
	var se *ScanError
	if !errors.As(err, &se) || !errors.Is(err, ErrScan) || se.Path != "references/research/z.md" {
		t.Fatalf("err = %v, want a ScanError for z.md", err)
	}
}

// noCache is a MetaCache that remembers nothing: QueryCached reads every
// file.
type noCache struct{}

func (noCache) Start([]string)                      {}
func (noCache) Lookup(int, FileStat) (string, bool) { return "", false }
func (noCache) Known(int) bool                      { return false }
func (noCache) Put(int, string, FileStat, []byte)   {}

// Of several files that cannot be read, QueryCached names the first in
// corpus order, whichever of its goroutines met it first.
func TestQueryCachedNamesFirstUnreadable(t *testing.T) {
	files := map[string]string{}
	for i := range 600 {
		files[fmt.Sprintf("references/decisions/r%03d.md", i)] = rec(fmt.Sprintf("dec.r%03d", i), "decision", "[x1]", "R")
	}
	root := mkTree(t, files)
	stores, _ := allStores("")
	c, _ := Open(root, stores)
	for _, i := range []int{100, 101, 550, 599} {
		if err := os.Remove(filepath.Join(root, fmt.Sprintf("references/decisions/r%03d.md", i))); err != nil {
			t.Fatal(err)
		}
	}
	for range 20 {
		_, err := c.QueryCached(Query{Kind: "decision"}, noCache{})
		var se *ScanError
		if !errors.As(err, &se) || se.Path != "references/decisions/r100.md" {
			t.Fatalf("err = %v, want a ScanError for r100.md", err)
		}
	}
}
