package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeRecords(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func searchPaths(t *testing.T, root string, q SearchQuery) []string {
	t.Helper()
	c, err := Open(root, []string{"procedures"})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := c.Search(q)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rs {
		out = append(out, r.Path)
	}
	return out
}

func TestSearchRanksOnEveryField(t *testing.T) {
	root := writeRecords(t, map[string]string{
		"procedures/a.md":      "---\nid: open-pr\nkind: procedure\nkeywords: [github]\n---\n# Open a pull request\nPush the branch first.\n",
		"procedures/b.md":      "---\nid: tag-release\nkind: procedure\nkeywords: [release, tags]\n---\n# Cut a release\nTag the commit.\n",
		"procedures/c.md":      "---\nid: rotate\nkind: gotcha\n---\n# Rotate credentials\nThe vault holds the database passwords.\n",
		"procedures/d.md":      "",
		"procedures/deploy.md": "---\nkind: procedure\n---\n# Ship it\nNothing here names the task.\n",
	})
	for _, c := range []struct {
		text string
		want string
	}{
		{"how do I open a PR", "procedures/a.md"},              // title, through the abbreviation
		{"tagging a release", "procedures/b.md"},               // keywords, through the stemmer
		{"where are the DB passwords kept", "procedures/c.md"}, // body
		{"deploy", "procedures/deploy.md"},                     // path words
		{"rotat credentails", "procedures/c.md"},               // close spelling
	} {
		got := searchPaths(t, root, SearchQuery{Text: c.text})
		if len(got) == 0 || got[0] != c.want {
			t.Errorf("%q: got %v, want %s first", c.text, got, c.want)
		}
	}
	if got := searchPaths(t, root, SearchQuery{Text: "release credentials", Filter: Query{Kind: "gotcha"}}); strings.Join(got, " ") != "procedures/c.md" {
		t.Errorf("kind filter: got %v", got)
	}
	if got := searchPaths(t, root, SearchQuery{Text: "release credentials", Filter: Query{Limit: 1}}); len(got) != 1 {
		t.Errorf("limit: got %v", got)
	}
	c, _ := Open(root, []string{"procedures"})
	if _, err := c.Search(SearchQuery{Text: "- ?"}); !errors.Is(err, ErrUsage) {
		t.Errorf("no term: err %v", err)
	}
}

func TestSearchReadsTheBodyUpToItsCap(t *testing.T) {
	pad := strings.Repeat("filler words here\n", 70<<10/18)
	root := writeRecords(t, map[string]string{
		"procedures/near.md": "---\nkind: procedure\n---\n# One\nzebra\n" + pad,
		"procedures/far.md":  "---\nkind: procedure\n---\n# Two\n" + pad + "quagga\n",
	})
	if got := searchPaths(t, root, SearchQuery{Text: "zebra"}); len(got) != 1 {
		t.Errorf("zebra: got %v", got)
	}
	if got := searchPaths(t, root, SearchQuery{Text: "quagga"}); len(got) != 0 {
		t.Errorf("a word past the body cap was found: %v", got)
	}
}

func TestReadAbbreviationsRefusesWhatItMustNotRead(t *testing.T) {
	root := t.TempDir()
	name := filepath.Join(root, "search-abbreviations.txt")
	if m, err := ReadAbbreviations(root); m != nil || err != nil {
		t.Fatalf("no file: %v %v", m, err)
	}
	os.WriteFile(name, []byte("sso: single sign-on\n"), 0o644)
	if m, err := ReadAbbreviations(root); err != nil || m["sso"] != "single sign-on" {
		t.Fatalf("got %v %v", m, err)
	}
	os.WriteFile(name, []byte("# "+strings.Repeat("x", 64<<10)+"\n"), 0o644)
	if _, err := ReadAbbreviations(root); err == nil || !strings.Contains(err.Error(), "cap") {
		t.Errorf("over the cap: %v", err)
	}
	other := filepath.Join(t.TempDir(), "elsewhere.txt")
	os.WriteFile(other, []byte("sso: single sign-on\n"), 0o644)
	os.Remove(name)
	os.Symlink(other, name)
	if _, err := ReadAbbreviations(root); err == nil {
		t.Error("a symlinked list was read")
	}
}
