package corpus

import (
	"github.com/procedures-go/procedures/internal/proctest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestStores(t *testing.T) {
	s := Stores()
	if len(s) != 10 {
		t.Fatalf("Stores() has %d entries", len(s))
	}
	for _, rule := range []string{"references/invariants", "references/principles", "references/policies", "references/standards"} {
		found := false
		for _, x := range s {
			found = found || x == rule
		}
		if !found {
			t.Errorf("rule store %s missing", rule)
		}
	}
}

func TestEnumerate(t *testing.T) {
	root := mkTree(t, map[string]string{
		"references/decisions/-dash.md":           "x",
		"references/decisions/.hidden.md":         "x",
		"references/decisions/B.md":               "x",
		"references/decisions/_a.md":              "x",
		"references/decisions/a.md":               "x",
		"references/decisions/index.md":           "x",
		"references/decisions/INDEX.md":           "x",
		"references/decisions/sub/INDEX.md":       "x",
		"references/decisions/sp ace.md":          "x",
		"references/decisions/sub/deep.md":        "x",
		"references/decisions/é.md":               "x",
		"references/decisions/x.MD":               "x",
		"references/decisions/x.txt":              "x",
		"references/decisions/my_archived.md":     "x",
		"references/decisions/x_archived_y/in.md": "x",
		"plans/_archived/old.md":                  "x",
		"plans/reldecoy10.md":                     "x",
		"plans/reldecoy1.md":                      "x",
		"team-kb/t.md":                            "x",
		"kb/t1.md":                                "x",
		"outside/o.md":                            "x",
	})
	if runtime.GOOS != "windows" {
		os.Symlink(filepath.Join(root, "outside"), filepath.Join(root, "titw"))
		os.Symlink(filepath.Join(root, "outside/o.md"), filepath.Join(root, "plans/link.md"))
		os.Symlink(filepath.Join(root, "outside"), filepath.Join(root, "plans/linkdir"))
		os.Symlink(filepath.Join(root, "outside/o.md"), filepath.Join(root, "references/policies"))
	}
	stores, _ := allStores("kb/ ./kb plans")
	paths, skipped := Enumerate(root, stores)
	want := []string{
		"./kb/t1.md", "kb/t1.md",
		"plans/reldecoy1.md", "plans/reldecoy1.md", "plans/reldecoy10.md", "plans/reldecoy10.md",
		"references/decisions/-dash.md", "references/decisions/.hidden.md", "references/decisions/B.md",
		"references/decisions/_a.md", "references/decisions/a.md", "references/decisions/index.md",
		"references/decisions/sp ace.md", "references/decisions/sub/deep.md", "references/decisions/é.md",
	}
	if runtime.GOOS != "windows" {
		want = append(want, "titw/o.md")
	}
	if !slices.Equal(paths, want) || len(skipped) != 0 {
		t.Errorf("Enumerate =\n%q\nwant\n%q (skipped %v)", paths, want, skipped)
	}
}

func TestEnumerateUnreadableDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs POSIX permissions")
	}
	if proctest.RunUnprivileged(t) {
		return // ran as a non-root user in a child process
	}
	root := mkTree(t, map[string]string{"plans/a.md": "x", "plans/locked/b.md": "x"})
	os.Chmod(filepath.Join(root, "plans/locked"), 0)
	t.Cleanup(func() { os.Chmod(filepath.Join(root, "plans/locked"), 0o755) })
	paths, skipped := Enumerate(root, []string{"plans"})
	if !slices.Equal(paths, []string{"plans/a.md"}) || len(skipped) != 1 || !strings.Contains(skipped[0].Error(), "plans/locked") {
		t.Errorf("paths %q skipped %v", paths, skipped)
	}
}

func TestOpenMissingRoot(t *testing.T) {
	_, err := Open(filepath.Join(t.TempDir(), "nope"), Stores())
	if _, ok := err.(*NoRootError); !ok {
		t.Fatalf("err = %v, want *NoRootError", err)
	}
}
