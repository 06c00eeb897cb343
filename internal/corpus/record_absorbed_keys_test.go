package corpus

import "testing"

// A column-0 "key:" line hidden inside a value spanning lines is read
// line by line by the frontmatter reader (TestFrontmatterAbsorbedKeyLines);
// a record's query fields take it from there, so a query finds the record
// the upstream line reading found.
func TestRecordReadsAbsorbedKeyLines(t *testing.T) {
	for _, tc := range []struct{ doc, id, kind string }{
		{"---\nsummary: \"Starts quoted\nid: dec.absorbed\nkind: decision\nnote: ends here\"\n---\n# t\n", "dec.absorbed", "decision"},
		{"---\nlinks: {\nid: dec.inflow, kind: decision }\n---\n# t\n", "dec.inflow,", ""},
		{"---\nkeywords: [aa,\nid: dec.inseq]\nkind: decision\n---\n# t\n", "dec.inseq]", "decision"},
		{"---\nid: dec.first\ntitle: \"open\nid: dec.second\nend\"\n---\n# t\n", "dec.second", ""},
	} {
		if r := ParseRecord("p.md", []byte(tc.doc)); r.ID != tc.id || r.Kind != tc.kind {
			t.Errorf("%q: ParseRecord id %q kind %q, want %q %q", tc.doc, r.ID, r.Kind, tc.id, tc.kind)
		}
	}
}
