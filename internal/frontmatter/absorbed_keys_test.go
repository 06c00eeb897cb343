package frontmatter

import "testing"

// A block can be valid YAML and still hide a column-0 key line inside a
// multi-line quoted scalar or flow collection left open above it. The line
// reading upstream used sees that key; so must we (the issue: no record the
// bash version could find is lost), so such a block is read line by line.
func TestFrontmatterAbsorbedKeyLines(t *testing.T) {
	for _, tc := range []struct {
		doc, key, scalar string
		line             int
	}{
		{"---\nsummary: \"Starts quoted\nid: dec.absorbed\nkind: decision\nnote: ends here\"\n---\n# t\n", "id", "dec.absorbed", 3},
		{"---\nsummary: 'Starts quoted\nid: dec.absorbed\nkind: decision\nnote: ends here'\n---\n# t\n", "kind", "decision", 3},
		{"---\nlinks: {\nid: dec.inflow, kind: decision }\n---\n# t\n", "id", "dec.inflow,", 3},
		{"---\nkeywords: [aa,\nid: dec.inseq]\nkind: decision\n---\n# t\n", "id", "dec.inseq]", 3},
		// The key is also a real top-level key: the absorbed, later line
		// is the one the line reading keeps (last wins).
		{"---\nid: dec.first\ntitle: \"open\nid: dec.second\nend\"\n---\n# t\n", "id", "dec.second", 4},
	} {
		f := Parse([]byte(tc.doc))
		if f.YAMLErr == nil {
			t.Errorf("%q: YAMLErr is nil; Scalar(%s) = %q", tc.doc, tc.key, f.Scalar(tc.key))
			continue
		}
		if f.YAMLErr.Line != tc.line {
			t.Errorf("%q: YAMLErr.Line = %d (%v), want %d", tc.doc, f.YAMLErr.Line, f.YAMLErr, tc.line)
		}
		if got := f.Scalar(tc.key); got != tc.scalar {
			t.Errorf("%q: Scalar(%s) = %q, want %q", tc.doc, tc.key, got, tc.scalar)
		}
	}
	// Valid YAML whose top-level keys are exactly the column-0 key lines is
	// still read as YAML, however its values span lines.
	for _, doc := range []string{
		"---\nid: dec.ok\ntitle: \"multi\n  line\"\nkeywords: [aa,\n  bb]\n---\n",
		"---\nid : spaced\nkind: decision\n---\n",
		"---\n\"id\": q\n'kind': decision\n<<: {status: x}\n---\n",
		"---\nkind: decision\nkeywords:\n- aa\n- bb\n---\n",
	} {
		if f := Parse([]byte(doc)); f.YAMLErr != nil {
			t.Errorf("%q: YAMLErr = %v, want the YAML reading", doc, f.YAMLErr)
		}
	}
}

// FuzzNoKeyLineLost: whenever the YAML reading is used, every column-0
// "key:" line the line reading sees (for a key YAML would read plainly) is
// a top-level key of the YAML reading too, so a query on it can only gain
// from YAML, never lose a record (issue 2).
func FuzzNoKeyLineLost(f *testing.F) {
	for _, s := range []string{
		"id: a\nkind: b\n",
		"summary: \"open\nid: dec.x\nend\"\n",
		"keywords: [a,\nid: x]\n",
		"links: {\nid: y }\n",
		"id: a\nt: 'o\nid: b\nc'\n",
		"k: |\n  id: no\nid: yes\n",
		"id : spaced\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, block []byte) {
		fm := Parse(append(append([]byte("---\n"), block...), "\n---\n"...))
		if fm.YAMLErr != nil {
			return
		}
		for _, kl := range fm.Lines() {
			if keyLen([]byte(kl.Key)) == len(kl.Key) && !fm.Has(kl.Key) {
				t.Fatalf("YAML reading lost key line %d %q of %q", kl.Line, kl.Key, block)
			}
		}
	})
}
