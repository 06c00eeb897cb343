package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func catTree(t *testing.T) (*Corpus, string) {
	t.Helper()
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.md"), []byte("secret\n"), 0o644)
	root := mkTree(t, map[string]string{
		"references/decisions/alpha.md": rec("dec.alpha", "decision", "[alphakw]", "Alpha"),
		"references/decisions/beta.md":  rec("dec.beta", "decision", "[betakw]", "Beta"),
		"references/decisions/-dash.md": "dash\n",
		"references/decisions/empty.md": "",
		"references/decisions/INDEX.md": "index\n",
		"plans/_archived/old.md":        "old\n",
		"not-a-record.md":               "secret\n",
		"titw/pkg/knowledge/v.md":       "vendor\n",
	})
	if runtime.GOOS != "windows" {
		os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(root, "references/decisions/link.md"))
		os.Symlink(outside, filepath.Join(root, "references/decisions/linkdir"))
	}
	// A sibling directory sharing the root's name as a prefix.
	sib := root + "-sibling"
	os.MkdirAll(filepath.Join(sib, "references/decisions"), 0o755)
	os.WriteFile(filepath.Join(sib, "references/decisions/x.md"), []byte("sibling\n"), 0o644)
	t.Cleanup(func() { os.RemoveAll(sib) })
	stores, _ := allStores("")
	c, err := Open(root, stores)
	if err != nil {
		t.Fatal(err)
	}
	return c, root
}

func TestCatMembership(t *testing.T) {
	c, root := catTree(t)
	good := []string{
		"references/decisions/alpha.md",
		"./references/decisions/alpha.md",
		root + "/references/decisions/alpha.md",
		"references/decisions/-dash.md",
		"titw/pkg/knowledge/v.md",
	}
	for _, r := range good {
		if _, ok := c.Member(r); !ok {
			t.Errorf("Member(%q) refused", r)
		}
	}
	bad := []string{
		"", "references/decisions/nope.md", "not-a-record.md", root + "/not-a-record.md",
		"../../../../etc/passwd", "/etc/passwd", "plans/_archived/old.md", "references/decisions/INDEX.md",
		"references/decisions/link.md", "references/decisions/linkdir/secret.md",
		root + "-sibling/references/decisions/x.md", "../" + filepath.Base(root) + "-sibling/references/decisions/x.md",
		"references/decisions/*.md", "references/decisions/[ab]lpha.md", "references/decisions/alph?.md",
		"././references/decisions/alpha.md", root + "/./references/decisions/alpha.md",
		"references/decisions/../decisions/alpha.md", "references/decisions/alpha.md\n/etc/passwd",
		"references//decisions/alpha.md", "references/decisions/alpha.md/", " references/decisions/alpha.md",
	}
	for _, r := range bad {
		if p, ok := c.Member(r); ok {
			t.Errorf("Member(%q) accepted as %q", r, p)
		}
	}
}

func TestCatAtomicAndOrdered(t *testing.T) {
	c, _ := catTree(t)
	d, err := c.Cat([]string{"references/decisions/beta.md", "./references/decisions/alpha.md", "references/decisions/beta.md", "references/decisions/empty.md"})
	if err != nil {
		t.Fatal(err)
	}
	if len(d) != 3 || d[0].Path != "references/decisions/beta.md" || d[1].Path != "references/decisions/alpha.md" || len(d[2].Content) != 0 {
		t.Fatalf("dumps = %+v", d)
	}

	d, err = c.Cat([]string{"references/decisions/alpha.md", "/etc/passwd", "dec.alpha", ""})
	var ce *CatError
	if !errors.As(err, &ce) || !errors.Is(err, ErrUsage) || d != nil {
		t.Fatalf("newline smuggling: dumps %v, err %v", d, err)
	}
	if !slices.Equal(ce.Refs, []string{"/etc/passwd", "dec.alpha", ""}) {
		t.Errorf("CatError = %+v", ce)
	}
}

func TestCatUnreadableMemberIsAtomic(t *testing.T) {
	// The member vanishes between the scan and the read (this also works
	// when the tests run as root, where a mode-000 file stays readable).
	c, root := catTree(t)
	if err := os.Remove(filepath.Join(root, "references/decisions/beta.md")); err != nil {
		t.Fatal(err)
	}
	d, err := c.Cat([]string{"references/decisions/alpha.md", "references/decisions/beta.md"})
	if !errors.Is(err, ErrScan) || d != nil {
		t.Fatalf("dumps %v, err %v: want no dumps and a scan error", d, err)
	}
}

// FuzzCatMember: --cat never resolves a reference to anything but a path
// the scan listed, whatever the reference.
func FuzzCatMember(f *testing.F) {
	for _, s := range []string{"references/decisions/alpha.md", "./references/decisions/alpha.md", "../x", "/etc/passwd",
		"references/decisions/alpha.md\n/etc/passwd", "-x", "references/decisions/*.md", "././a", ""} {
		f.Add(s)
	}
	root := mkTree(f, map[string]string{
		"references/decisions/alpha.md": "a\n",
		"plans/p.md":                    "p\n",
		"not-a-record.md":               "secret\n",
	})
	stores, _ := allStores("")
	c, err := Open(root, stores)
	if err != nil {
		f.Fatal(err)
	}
	set := map[string]bool{}
	for _, p := range c.Paths() {
		set[p] = true
	}
	f.Fuzz(func(t *testing.T, ref string) {
		for _, r := range []string{ref, root + "/" + ref} {
			if p, ok := c.Member(r); ok && !set[p] {
				t.Fatalf("Member(%q) = %q, not a scanned path", r, p)
			}
			d, err := c.Cat([]string{r})
			for _, x := range d {
				if !set[x.Path] || strings.Contains(string(x.Content), "secret") {
					t.Fatalf("Cat(%q) dumped %q", r, x.Path)
				}
			}
			if err == nil && len(d) == 0 {
				t.Fatalf("Cat(%q): no dumps and no error", r)
			}
		}
	})
}
