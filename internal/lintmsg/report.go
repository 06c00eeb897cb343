// Package lintmsg words the frontmatter lint's results ([lint.Finding],
// [lint.LintResult]) as lint-frontmatter and the hooks print them: the
// emoji-prefixed finding lines, the accounting line and the failure footer.
package lintmsg

import (
	"errors"
	"fmt"
	"io"

	"github.com/procedures-go/procedures/internal/lint"
)

// Line renders f as the lint report prints it (without the newline).
func Line(f lint.Finding) string {
	if f.Severity == lint.SeverityWarning {
		return "⚠ frontmatter-lint WARNING: " + f.Message
	}
	return "❌ frontmatter-lint: " + f.Message
}

// Write prints r as the lint report, in this order: the per-file
// messages (stderr), the accounting line (stdout), the duplicate ids (stderr)
// and, on failure, the footer (stderr). Each line is one Write call, so when
// both writers are the same stream the interleaving is kept.
func Write(r *lint.LintResult, stdout, stderr io.Writer) error {
	return WriteCapped(r, stdout, stderr, -1)
}

// WriteCapped is [Write] showing at most max per-file findings:
// when there are more, the first max are followed by one stderr line
// "… and N more" (N the findings left out). Everything else (the
// accounting line, duplicates, the footer, and so whether it failed) is
// unchanged. A negative max shows every finding.
func WriteCapped(r *lint.LintResult, stdout, stderr io.Writer, max int) error {
	var errs []error
	put := func(w io.Writer, s string) {
		_, err := io.WriteString(w, s)
		errs = append(errs, err)
	}
	shown := r.Findings
	if max >= 0 && len(shown) > max {
		shown = shown[:max]
	}
	for _, f := range shown {
		put(stderr, Line(f)+"\n")
	}
	if left := len(r.Findings) - len(shown); left > 0 {
		put(stderr, fmt.Sprintf("… and %d more\n", left))
	}
	put(stdout, fmt.Sprintf("frontmatter-lint: linted %d file(s)\n", r.Linted))
	for _, d := range r.Duplicates {
		put(stderr, Line(d.Finding())+"\n")
	}
	if r.Failed() {
		put(stderr, "\nfrontmatter-lint failed. Fix the records above, or (NOT recommended)\nbypass with: git commit --no-verify\n")
	}
	return errors.Join(errs...)
}
