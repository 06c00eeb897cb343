package lintfrontmatter

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/procedures-go/procedures/internal/config"
)

// With stdout and stderr on one stream the order is messages, accounting
// line, duplicates, footer.
func TestRunSharedStream(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "references", "decisions")
	os.MkdirAll(dir, 0o777)
	rec := "---\nid: dec.d\nkind: decision\ndate: 2026-08-10\nkeywords: [k]\nlinks: {}\nstatus: active\n---\n"
	os.WriteFile(filepath.Join(dir, "a.md"), []byte(rec), 0o666)
	os.WriteFile(filepath.Join(dir, "b.md"), []byte(rec), 0o666)
	os.WriteFile(filepath.Join(dir, "c.md"), []byte("# no fm\n"), 0o666)
	var buf bytes.Buffer
	code := run(nil, &buf, &buf, config.RecordsFrom(func(k string) string {
		if k == "LINT_FRONTMATTER_ROOT" {
			return root
		}
		return ""
	}, config.LintFrontmatterRoot))
	want := "❌ frontmatter-lint: references/decisions/c.md: missing frontmatter block (first line is not '---')\n" +
		"frontmatter-lint: linted 3 file(s)\n" +
		"❌ frontmatter-lint: duplicate id 'dec.d' in: references/decisions/a.md references/decisions/b.md\n" +
		"\nfrontmatter-lint failed. Fix the records above, or (NOT recommended)\nbypass with: git commit --no-verify\n"
	if code != 1 || buf.String() != want {
		t.Errorf("exit %d, output\n%s\nwant\n%s", code, buf.String(), want)
	}
}

func TestRunMissingRoot(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(nil, &stdout, &stderr, config.RecordsFrom(func(k string) string {
		if k == "HOME" {
			return "/nonexistent-home"
		}
		return ""
	}, config.LintFrontmatterRoot))
	if code != 1 || stdout.Len() != 0 || stderr.String() != "❌ frontmatter-lint: root /nonexistent-home/.claude is not a directory\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}
