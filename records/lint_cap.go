package records

import (
	"errors"
	"fmt"
	"io"
)

// MaxShownFindings is how many per-file findings the enforce-frontmatter
// hook shows (see [LintResult.WriteCapped]); a record with 100,000 dangling
// links then costs the model a few kilobytes, not megabytes.
const MaxShownFindings = 50

// WriteCapped is [LintResult.Write] showing at most max per-file findings:
// when there are more, the first max are followed by one stderr line
// "… and N more" (N the findings left out). Everything else (the
// accounting line, duplicates, the footer, and so whether it failed) is
// unchanged. A negative max shows every finding.
func (r *LintResult) WriteCapped(stdout, stderr io.Writer, max int) error {
	if max < 0 || len(r.Findings) <= max {
		return r.Write(stdout, stderr)
	}
	var errs []error
	put := func(w io.Writer, s string) {
		_, err := io.WriteString(w, s)
		errs = append(errs, err)
	}
	for _, f := range r.Findings[:max] {
		put(stderr, f.String()+"\n")
	}
	put(stderr, fmt.Sprintf("… and %d more\n", len(r.Findings)-max))
	put(stdout, fmt.Sprintf("frontmatter-lint: linted %d file(s)\n", r.Linted))
	for _, d := range r.Duplicates {
		put(stderr, d.Finding().String()+"\n")
	}
	if r.Failed() {
		put(stderr, "\nfrontmatter-lint failed. Fix the records above, or (NOT recommended)\nbypass with: git commit --no-verify\n")
	}
	return errors.Join(errs...)
}
