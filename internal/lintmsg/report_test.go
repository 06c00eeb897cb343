package lintmsg

import (
	"bytes"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/lint"
)

// TestWriteOrder pins the order of the report's lines on a single stream.
func TestWriteOrder(t *testing.T) {
	r := &lint.LintResult{
		Linted:     1,
		Findings:   []lint.Finding{{Message: "f: one"}, {Message: "f: two", Severity: lint.SeverityWarning}},
		Duplicates: []lint.Duplicate{{ID: "x", Files: []string{"a.md", "b.md", "c.md"}}},
	}
	var buf bytes.Buffer
	if err := Write(r, &buf, &buf); err != nil {
		t.Fatal(err)
	}
	want := "❌ frontmatter-lint: f: one\n⚠ frontmatter-lint WARNING: f: two\nfrontmatter-lint: linted 1 file(s)\n" +
		"❌ frontmatter-lint: duplicate id 'x' in: a.md c.md\n\nfrontmatter-lint failed. Fix the records above, or (NOT recommended)\nbypass with: git commit --no-verify\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
	// Warnings alone do not fail and print no footer.
	r = &lint.LintResult{Linted: 1, Findings: []lint.Finding{{Message: "f: w", Severity: lint.SeverityWarning}}}
	buf.Reset()
	Write(r, &buf, &buf)
	if r.Failed() || strings.Contains(buf.String(), "failed") {
		t.Errorf("a warning failed the lint:\n%s", buf.String())
	}
}
