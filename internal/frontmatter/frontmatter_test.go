package frontmatter

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestSplitFences(t *testing.T) {
	for _, tc := range []struct {
		in                  string
		present, terminated bool
		block, body         string
	}{
		{"", false, false, "", ""},
		{"---", true, false, "", ""},
		{"---\n", true, false, "", ""},
		{"---\nid: x\n---\n# T\n", true, true, "id: x\n", "# T\n"},
		{"---\nid: x\n---", true, true, "id: x\n", ""},
		{"---\nid: x\n", true, false, "id: x\n", ""},
		{"--- \nid: x\n---\n", false, false, "", "--- \nid: x\n---\n"},
		{"---\r\nid: x\r\n---\r\n", false, false, "", "---\r\nid: x\r\n---\r\n"},
		{"\n---\nid: x\n---\n", false, false, "", "\n---\nid: x\n---\n"},
		{"---\nid: x\n...\nkind: y\n--- \n---\nbody", true, true, "id: x\n...\nkind: y\n--- \n", "body"},
		{"----\n", false, false, "", "----\n"},
	} {
		p, term, block, body := SplitFences([]byte(tc.in))
		if p != tc.present || term != tc.terminated || string(block) != tc.block || string(body) != tc.body {
			t.Errorf("SplitFences(%q) = %v %v %q %q, want %v %v %q %q", tc.in, p, term, block, body,
				tc.present, tc.terminated, tc.block, tc.body)
		}
	}
}

func TestFrontmatterAccessors(t *testing.T) {
	doc := "---\n" +
		"id: \"quoted spaced\"\n" +
		"kind: decision # a comment\n" +
		"project: ~\n" +
		"keywords:\n  - alpha\n  - \"beta gamma\"\n" +
		"links:\n  decisions: [dec.a, 'dec.b']\n  scenario: sc.x\n" +
		"status: active\n" +
		"status: superseded\n" +
		"---\n# Title\n"
	f := Parse([]byte(doc))
	if f.YAMLErr != nil {
		t.Fatalf("YAMLErr = %v", f.YAMLErr)
	}
	check := func(got, want any, what string) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %#v, want %#v", what, got, want)
		}
	}
	check(f.Scalar("id"), "quoted spaced", "Scalar(id)")
	check(f.Scalar("kind"), "decision", "Scalar(kind)")
	check(f.Scalar("project"), "", "Scalar(project)")
	check(f.Has("project"), true, "Has(project)")
	check(f.Has("date"), false, "Has(date)")
	check(f.Scalar("status"), "superseded", "Scalar(status) (last wins)")
	check(f.Scalar("keywords"), "", "Scalar(keywords)")
	check(f.Leaves("keywords"), []string{"alpha", "beta gamma"}, "Leaves(keywords)")
	check(f.Leaves("links"), []string{"dec.a", "dec.b", "sc.x"}, "Leaves(links)")
	check(f.Leaves("nope"), []string(nil), "Leaves(nope)")
	check(string(f.Body), "# Title\n", "Body")
	lines := f.Lines()
	if len(lines) != 7 || lines[0] != (KeyLine{"id", `"quoted spaced"`, 2}) || lines[3].Key != "keywords" || lines[3].Line != 5 {
		t.Errorf("Lines() = %#v", lines)
	}
}

func TestFrontmatterFallback(t *testing.T) {
	// Not YAML (quoted scalar followed by text; a tab; id:nospace): the
	// line view of query-records is used.
	for _, tc := range []struct {
		doc, key, scalar string
		leaves           []string
		line             int
	}{
		{"---\nkeywords: \"quoted-kw\" x\nid: 'x' y\n---\n", "keywords", "quoted-kw", []string{`"quoted-kw" x`}, 2},
		{"---\nid:nospace\nkind: decision\n---\n", "id", "nospace", []string{"nospace"}, 3},
		{"---\nid: a\nkind: decision\n# Heading\nbody text here\n", "kind", "decision", []string{"decision"}, 5},
		{"---\nid: \"unbalanced\nkind: x\n---\n", "id", `"unbalanced`, []string{`"unbalanced`}, 0},
		{"---\nid: x\n--- \nid: y\n---\n", "id", "y", []string{"y"}, 0},
		{"---\n- a\n- b\n---\n", "a", "", nil, 2},
		{"---\nid: x\nkind: d\ndate: 1\nkeywords: []\nlinks: {}\ntitle: [unclosed\nstatus: active\n---\n", "id", "x", []string{"x"}, 7},
		{"---\nid: x\ntitle: a: b\n---\n", "id", "x", []string{"x"}, 3},
	} {
		f := Parse([]byte(tc.doc))
		if f.YAMLErr == nil {
			t.Errorf("%q: YAMLErr is nil", tc.doc)
			continue
		}
		if tc.line != 0 && f.YAMLErr.Line != tc.line {
			t.Errorf("%q: YAMLErr.Line = %d (%v), want %d", tc.doc, f.YAMLErr.Line, f.YAMLErr, tc.line)
		}
		if got := f.Scalar(tc.key); got != tc.scalar {
			t.Errorf("%q: Scalar(%s) = %q, want %q", tc.doc, tc.key, got, tc.scalar)
		}
		if got := f.Leaves(tc.key); !reflect.DeepEqual(got, tc.leaves) {
			t.Errorf("%q: Leaves(%s) = %q, want %q", tc.doc, tc.key, got, tc.leaves)
		}
	}
}

func TestFrontmatterAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 9; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	b.WriteString("links: *a8\n---\n")
	f := Parse([]byte(b.String()))
	if f.YAMLErr == nil {
		t.Fatalf("alias bomb decoded: %d leaves", len(f.Leaves("links")))
	}
}

// simpleBlocks are blocks the fast path must accept.
var simpleBlocks = []string{
	"id: dec.x\nkind: decision\ndate: 2026-06-12\nkeywords: [quokkadec, autonomy, delegation]\nlinks: {}\nstatus: active\n",
	"id: \"dec.quoted probe\"\nkind: 'decision'\nproject: langwatch/scenario\nlinks: { decisions: [dec.a, \"dec.b\"], failure-modes: ['fm.c'] }\n",
	"keywords: [alpha] # commentword\nlinks: []\nproject: plainname extra\nid: ~\nkind: null\n",
	"# comment\n\nkind: decision extra words\nid: x # c\nlinks: dec.f dec.g\nkeywords: foo, bar\n",
	"links: [~, a, null, \"null\"]\nkeywords: [ a b , c ]\nid: é-ü\n",
	"id:\nkind:   \nproject: # nothing\n",
	"links:\n  decisions: [dec.h]\n  scenario: sc.x # c\n  criterion:\nkeywords:\n    - alpha\n    - 'beta'\n\n    - ~\nid: x\n",
	"links: # block\n  decisions: {}\n# comment\n  failure-modes: \"fm.q\"\nstatus:\n",
}

func TestSimpleMatchesYAML(t *testing.T) {
	for _, b := range simpleBlocks {
		var fast Fields
		if !parseSimple([]byte(b), &fast) {
			t.Errorf("parseSimple rejected %q", b)
			continue
		}
		compareWithYAML(t, []byte(b), &fast)
	}
}

func compareWithYAML(t *testing.T, block []byte, fast *Fields) {
	t.Helper()
	var full Fields
	if err := decodeYAML(block, &full); err != nil {
		t.Fatalf("parseSimple accepted %q, YAML says %v", block, err)
	}
	if got, want := dumpFields(fast), dumpFields(&full); got != want {
		t.Fatalf("block %q:\nfast %s\nyaml %s", block, got, want)
	}
}

func dumpFields(fs *Fields) string {
	var b strings.Builder
	for i, e := range fs.entries {
		fmt.Fprintf(&b, "[%q %d %q", e.key, e.kind, e.val)
		fs.EachLeaf(i, func(l []byte) { fmt.Fprintf(&b, " %q", l) })
		b.WriteString("]")
	}
	return b.String()
}

func FuzzSimpleMatchesYAML(f *testing.F) {
	for _, b := range simpleBlocks {
		f.Add([]byte(b))
	}
	f.Add([]byte("id: a[b\nkind: x,y\n"))
	f.Add([]byte("links: {a: b, c: [d]}\n"))
	f.Fuzz(func(t *testing.T, block []byte) {
		var fast Fields
		if parseSimple(block, &fast) {
			compareWithYAML(t, block, &fast)
		}
		Parse(append([]byte("---\n"), block...))
	})
}
