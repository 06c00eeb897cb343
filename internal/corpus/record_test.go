package corpus

import (
	"slices"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/frontmatter"
)

func TestGloss(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"# Sample decision record\n", "Sample decision record"},
		{"##\tTabbed   heading ##  \n", "Tabbed heading ##"},
		{"#NoSpaceHeading\n", "#NoSpaceHeading"},
		{"   # Indented\n", "# Indented"},
		{"# \n", "(record)"},
		{"", "(record)"},
		{"  intro   text\twith   tabs  \n", "intro text with tabs"},
		{"# " + strings.Repeat("x", 95), strings.Repeat("x", 87) + "..."},
		{"# " + strings.Repeat("y", 90), strings.Repeat("y", 90)},
		{"# " + strings.Repeat("z", 91), strings.Repeat("z", 87) + "..."},
		// Never split a UTF-8 character.
		{"# " + strings.Repeat("é", 50), strings.Repeat("é", 43) + "..."},
		{"# " + strings.Repeat("a", 86) + "€€€", strings.Repeat("a", 86) + "..."},
		{"# " + strings.Repeat("a", 85) + "€€€", strings.Repeat("a", 85) + "..."},
		{"# " + strings.Repeat("a", 84) + "€€€", strings.Repeat("a", 84) + "€..."},
		{"# " + strings.Repeat("\xe9", 95), strings.Repeat("\xe9", 87) + "..."},
		{"---\n", "---"},
		{"\n  \t\nintro text\n# Title\n", "intro text"},
		{"#\n", "#"},
		{"# Title\r\n", "Title"},
	} {
		if got := gloss([]byte(tc.body), false); got != tc.want {
			t.Errorf("gloss(%q) = %q, want %q", tc.body, got, tc.want)
		}
	}
	if got := gloss(nil, true); got != "(record)" {
		t.Errorf("unterminated gloss = %q", got)
	}
}

func TestParseRecord(t *testing.T) {
	for _, tc := range []struct {
		content               string
		id, kind, project, gl string
		keywords, links       []string
	}{
		{"Just a plain first line as gloss.\nid: x\n", "", "", "", "Just a plain first line as gloss.", nil, nil},
		{"---\nid: dup1\nid: dup2\n---\nT\n", "dup2", "", "", "T", nil, nil},
		{"---\nkind: decision\n# Heading\nkind: other\n", "", "other", "", "(record)", nil, nil},
		{"---\nid: \"quoted spaced\"\nkind: decision extra words\n---\n", "quoted spaced", "decision", "", "(record)", nil, nil},
		{"---\n  id: a\nId: b\nid : c\nidentity: d\nkind:decision\n---\n", "", "decision", "", "(record)", nil, nil},
		{"---\nid:nospace\n---\n", "nospace", "", "", "(record)", nil, nil},
		{"---\nid: \"unbalanced/x\nproject: \"unbalanced/x\n---\n", `"unbalanced/x`, "", `"unbalanced/x`, "(record)", nil, nil},
		// CRLF frontmatter is read as LF (a deliberate difference,
		// docs/differences.md; upstream saw no frontmatter and glossed "---").
		{"---\r\nid: x\r\n---\r\n# T\r\n", "x", "", "", "T", nil, nil},
		{"---\nkeywords: [alpha] # commentword\nlinks:\n  decisions: [dec.h]\n---\n", "", "", "", "(record)", []string{"alpha"}, []string{"dec.h"}},
		{"---\nkeywords:\n  - foo\n  - bar baz\n---\n", "", "", "", "(record)", []string{"foo", "bar baz"}, nil},
		{"---\nkeywords: \"quoted-kw\" x\nlinks: {decisions:[dec.e]} # c\n---\n", "", "", "", "(record)", []string{`"quoted-kw" x`}, []string{"dec.e", "#", "c"}},
	} {
		r := ParseRecord("p.md", []byte(tc.content))
		if r.ID != tc.id || r.Kind != tc.kind || r.Project != tc.project || r.Gloss != tc.gl ||
			!slices.Equal(r.Keywords, tc.keywords) || !slices.Equal(r.Links, tc.links) {
			t.Errorf("ParseRecord(%q) = %+v", tc.content, r)
		}
	}
}

func TestTokens(t *testing.T) {
	if got := QueryTokens("Alpha, BETA gamma! a b alpha pr a[b"); !slices.Equal(got, []string{"alpha", "beta", "gamma", "pr"}) {
		t.Errorf("QueryTokens = %q", got)
	}
	if got := QueryTokens("K\u212Aelvin"); !slices.Equal(got, []string{"elvin"}) {
		t.Errorf("QueryTokens(Kelvin sign) = %q (non-ASCII is a separator)", got)
	}
	if got := keywordTokens("[pr-review, checklist]", `["quoted-kw" x]`, "[a-b]", "a[b]c"); !slices.Equal(got, []string{"pr", "review", "checklist", "quoted", "kw", "abc"}) {
		t.Errorf("KeywordTokens = %q", got)
	}
	if got := splitLinkTokens(`{ decisions: [dec.a, "dec.b"], failure-modes: ['fm.c'] } # dec.m`); !slices.Equal(got, []string{"decisions:", "dec.a", "dec.b", "failure-modes:", "fm.c", "#", "dec.m"}) {
		t.Errorf("LinkTokens = %q", got)
	}
}

// FuzzParseRecord: any content parses without panic, scalars never hold
// whitespace unless quoted in YAML, and the gloss is a single line of at
// most GlossMax bytes that never ends inside a valid UTF-8 character.
func FuzzParseRecord(f *testing.F) {
	for _, s := range []string{"", "---\n", "---\nid: x\n---\n# T\n", "---\nkeywords:\n  - a\nlinks: {a: [b]}\n---\nbody",
		"---\nid: \"a\\u00e9\"\nx: &a [*a]\n---\n", "---\n- a\n", "---\nkind: 'q' z\n---\n" + strings.Repeat("é", 60)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r := ParseRecord("p.md", b)
		if len(r.Gloss) == 0 || len(r.Gloss) > GlossMax || strings.ContainsAny(r.Gloss, "\n\t") {
			t.Fatalf("bad gloss %q", r.Gloss)
		}
		for _, toks := range [][]string{QueryTokens(string(b)), keywordTokens(string(b))} {
			seen := map[string]bool{}
			for _, tok := range toks {
				if len(tok) < MinTokenLen || seen[tok] || strings.Trim(tok, "abcdefghijklmnopqrstuvwxyz0123456789") != "" {
					t.Fatalf("bad token %q in %q", tok, toks)
				}
				seen[tok] = true
			}
		}
		for _, l := range r.Links {
			if l == "" || strings.ContainsAny(l, "\"' \t{}[],") {
				t.Fatalf("bad link token %q", l)
			}
		}
	})
}

// linkTokensByByte is eachLinkToken as it was: a token built byte by byte,
// quotes dropped, flushed at each separator.
func linkTokensByByte(s []byte) []string {
	var out []string
	var tok []byte
	flush := func() {
		if len(tok) > 0 {
			out = append(out, string(tok))
		}
		tok = tok[:0]
	}
	for _, c := range s {
		switch {
		case c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || frontmatter.IsSpace(c):
			flush()
		case c == '"' || c == '\'':
		default:
			tok = append(tok, c)
		}
	}
	flush()
	return out
}

// A links value splits into the tokens the byte-at-a-time loop gives, and
// splitting leaves the value as it was (tokens are mostly subslices of it).
func FuzzLinkTokens(f *testing.F) {
	for _, s := range []string{"", "a", "[a, b]", `{ x: ["a", 'b'] }`, `a"b c'`, `"'"`, "\t,,a\n", `[ "dec.a" , "" ]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		b := []byte(v)
		var got []string
		eachLinkToken(b, func(tok []byte) { got = append(got, string(tok)) })
		if want := linkTokensByByte([]byte(v)); !slices.Equal(got, want) {
			t.Fatalf("%q: got %q, want %q", v, got, want)
		}
		if string(b) != v {
			t.Fatalf("%q changed to %q", v, b)
		}
	})
}
