package corpus

import (
	"strings"
	"testing"
)

// Queries read only the head of a record: the frontmatter and the
// first non-blank body line. Wherever the first read ends (inside the
// frontmatter, on the closing fence, among the blank lines before the
// gloss line, inside the gloss line), the result must be what reading the
// whole file gives. Each record gets a corpus of its own so that every
// file is the first one its reader sees (no buffer grown by an earlier,
// bigger file).
func TestQueryHeadAcrossReadBoundaries(t *testing.T) {
	const gloss = "Real title after the blank lines"
	for fm := 16000; fm <= 16700; fm += 53 {
		var b strings.Builder
		b.WriteString("---\nid: dec.big\nkind: big\nkeywords: [bigkw]\n")
		for i := 0; b.Len() < fm; i++ {
			b.WriteString("# padding comment line in the frontmatter block\n")
		}
		b.WriteString("---\n")
		b.WriteString(strings.Repeat("\n", 300))
		b.WriteString("   \t\n# " + gloss + "\n\nlater body\n")
		content := b.String()
		root := mkTree(t, map[string]string{"references/decisions/big.md": content})
		stores, _ := allStores("")
		c, err := Open(root, stores)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []Query{{Kind: "big"}, {Keyword: "bigkw"}} {
			res, err := c.Query(q)
			if err != nil || len(res) != 1 || res[0].Gloss != gloss || res[0].ID != "dec.big" {
				t.Fatalf("frontmatter %d bytes, %+v: %v %+v; want gloss %q", fm, q, err, res, gloss)
			}
		}
		if want := ParseRecord("references/decisions/big.md", []byte(content)); want.Gloss != gloss {
			t.Fatalf("ParseRecord gloss %q", want.Gloss)
		}
	}
}
