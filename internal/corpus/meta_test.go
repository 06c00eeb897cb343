package corpus

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/frontmatter"
)

// metaContents are heads that exercise every field of the encoding: empty,
// capped and unterminated, no frontmatter, YAML and line-view blocks, lists,
// repeated and bracketed keywords, link sub-keys, long and heading glosses.
var metaContents = []string{
	"",
	"---\nid: a\nkind: decision\n",
	"no frontmatter\nat all\n",
	"---\nid: r-1\nkind: decision\nproject: org/app\nstatus: accepted\nkeywords: [Alpha, beta-Gamma, alpha]\nlinks: [r-2, \"r-3\"]\n---\n\n# The   title  line\n",
	"---\nid: \"quoted id\"\nkind: solution words\nkeywords:\n  - \"[x] One two\"\n  - three, ONE, ab[cd]ef\nlinks:\n  decisions: [d-1]\n  solutions: s-2\n---\nbody\n",
	"---\nid: x\nkeywords: a: b: c\nlinks: decisions: d-1 d-2\n: not yaml [\n---\n" + strings.Repeat("é", 80) + "\n",
	"---\nkind: null\nkeywords: []\nlinks: {}\n---\n\n\n   \n",
	"---\r\nid: crlf\r\n---\r\nline\r\n",
	// 130 keywords and links: counts of two varint bytes.
	"---\nid: many\nkeywords: [" + strings.Repeat("kw, ", 129) + "kw]\nlinks: [" + strings.Repeat("l, ", 129) + "l]\n---\n# many\n",
}

// The encoding written straight from the parsed head is the encoding of
// the FileMeta a read builds, and it decodes back to that FileMeta, the
// keyword tokens derived from the keywords.
func TestAppendMetaOf(t *testing.T) {
	for _, c := range metaContents {
		checkMetaOf(t, c, false)
		checkMetaOf(t, c, len(c) > 10)
	}
}

func FuzzAppendMetaOf(f *testing.F) {
	for _, c := range metaContents {
		f.Add(c, false)
	}
	f.Fuzz(func(t *testing.T, content string, capped bool) { checkMetaOf(t, content, capped) })
}

func checkMetaOf(t *testing.T, content string, capped bool) {
	t.Helper()
	b := normalizeCRLF(nil, []byte(content))
	var v recView
	want := metaOf("p.md", b, capped, &v, map[string]struct{}{})
	var w recView
	w.parse(b)
	got := appendMetaOf([]byte("prefix"), b, capped, &w)
	if string(got[:6]) != "prefix" || string(got[6:]) != string(AppendMeta(nil, want)) {
		t.Fatalf("%q: appendMetaOf = %q, want %q", content, got[6:], AppendMeta(nil, want))
	}
	dec := DecodeMeta("p.md", string(got[6:]), true)
	if want.Empty || want.Skip {
		want.Rec.Path = "p.md"
	}
	if !reflect.DeepEqual(dec, want) {
		t.Fatalf("%q: DecodeMeta = %#v, want %#v", content, dec, want)
	}
	if plain := DecodeMeta("p.md", string(got[6:]), false); plain.Tokens != nil {
		t.Fatalf("%q: tokens decoded without being asked for", content)
	}
	for i := range len(got) - 6 { // a truncated encoding decodes without a panic
		DecodeMeta("p.md", string(got[6:6+i]), true)
	}
}

// The tokens derived at load are those a read collects.
func FuzzSharedTokens(f *testing.F) {
	f.Add("Alpha beta-Gamma alpha", "ab[cd]ef [x] yz]", "é,Zz zz "+strings.Repeat("t1 t2 t3 ", 10))
	f.Fuzz(func(t *testing.T, a, b, c string) {
		kw := []string{a, b, c}
		got, want := sharedTokens(kw), keywordTokens(kw...)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("sharedTokens(%q) = %q, want %q", kw, got, want)
		}
	})
}

// The tokens derived at load are de-duplicated in linear time too (see
// TestKeywordTokensLinear; the deadline is a hang detector).
func TestSharedTokensLinear(t *testing.T) {
	const n = 300_000
	var b strings.Builder
	for i := range n {
		b.WriteString("kw" + strconv.Itoa(i) + " ")
	}
	done := make(chan []string, 1)
	go func() { done <- sharedTokens([]string{b.String()}) }()
	select {
	case toks := <-done:
		if len(toks) != n {
			t.Fatalf("%d tokens, want %d", len(toks), n)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("de-duplicating 300,000 keywords did not finish in 60 s: quadratic?")
	}
}

// glossByByte is appendGloss's collapsing of whitespace as it was first
// written, one byte at a time: the reference the word-at-a-time loop is
// held to.
func glossByByte(line []byte) []byte {
	var dst []byte
	sp := false
	for _, c := range line {
		if frontmatter.IsSpace(c) {
			sp = true
			continue
		}
		if sp && len(dst) > 0 {
			dst = append(dst, ' ')
		}
		sp = false
		dst = append(dst, c)
	}
	return dst
}

func FuzzGlossWhitespace(f *testing.F) {
	for _, s := range []string{"", " ", "a", " a ", "a  b\t\tc", "\v\fx y\r", "# Title   here  ", "é  ü\t\tø "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n") {
			return // appendGloss takes the first non-blank line
		}
		want := string(glossByByte([]byte(line)))
		if want == "" {
			want = "(record)"
		} else if len(want) > GlossMax {
			want = want[:cutUTF8([]byte(want), GlossMax-3)] + "..."
		}
		if h := headingLen([]byte(line)); h > 0 || strings.TrimLeft(line, " \t\v\f\r") == "" {
			return // headings and blank lines: covered by the scenarios; here only the collapsing
		}
		if got := string(appendGloss([]byte("p"), []byte(line), false)); got != "p"+want {
			t.Fatalf("%q: got %q, want %q", line, got[1:], want)
		}
	})
}
