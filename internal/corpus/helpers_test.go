package corpus

import (
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/proctest"
)

// mkTree writes files under a new temporary root (see proctest.Tree).
func mkTree(t testing.TB, files map[string]string) string { return proctest.Tree(t, files) }

// rec builds a record with the usual frontmatter and a "# title" body.
func rec(id, kind, keywords, title string, extra ...string) string {
	var b strings.Builder
	b.WriteString("---\nid: " + id + "\nkind: " + kind + "\ndate: 2026-06-12\n")
	if keywords != "" {
		b.WriteString("keywords: " + keywords + "\n")
	}
	b.WriteString("links: {}\nstatus: active\n")
	for _, e := range extra {
		b.WriteString(e + "\n")
	}
	b.WriteString("---\n# " + title + "\n")
	return b.String()
}

func openTree(t testing.TB, files map[string]string) *Corpus {
	t.Helper()
	stores, _ := allStores("")
	c, err := Open(mkTree(t, files), stores)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func lines(rs []Record) string {
	var b strings.Builder
	for _, r := range rs {
		b.WriteString(r.Path + " — " + r.Gloss + "\n")
	}
	return b.String()
}

// allStores is the default store list followed by the extra stores
// (space-separated) and no rejected entries: the commands' scan surface
// (internal/config.RecordStores) without the environment.
func allStores(extra string) (stores, rejected []string) {
	return append(DefaultStores(), strings.Fields(extra)...), nil
}
