package corpus

import (
	"errors"
	"fmt"
	"io"
)

// Write prints r as the lint report, in this order: the per-file
// messages (stderr), the accounting line (stdout), the duplicate ids (stderr)
// and, on failure, the footer (stderr). Each line is one Write call, so when
// both writers are the same stream the interleaving is kept.
func (r *LintResult) Write(stdout, stderr io.Writer) error {
	return r.WriteCapped(stdout, stderr, -1)
}

// WriteCapped is [LintResult.Write] showing at most max per-file findings:
// when there are more, the first max are followed by one stderr line
// "… and N more" (N the findings left out). Everything else (the
// accounting line, duplicates, the footer, and so whether it failed) is
// unchanged. A negative max shows every finding.
func (r *LintResult) WriteCapped(stdout, stderr io.Writer, max int) error {
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
		put(stderr, f.String()+"\n")
	}
	if left := len(r.Findings) - len(shown); left > 0 {
		put(stderr, fmt.Sprintf("… and %d more\n", left))
	}
	put(stdout, fmt.Sprintf("frontmatter-lint: linted %d file(s)\n", r.Linted))
	for _, d := range r.Duplicates {
		put(stderr, d.Finding().String()+"\n")
	}
	if r.Failed() {
		put(stderr, "\nfrontmatter-lint failed. Fix the records above, or (NOT recommended)\nbypass with: git commit --no-verify\n")
	}
	return errors.Join(errs...)
}
