package records

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
	var errs []error
	put := func(w io.Writer, s string) {
		_, err := io.WriteString(w, s)
		errs = append(errs, err)
	}
	for _, f := range r.Findings {
		put(stderr, f.String()+"\n")
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
