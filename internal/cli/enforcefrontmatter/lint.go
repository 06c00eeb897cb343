package enforcefrontmatter

import (
	"github.com/procedures-go/procedures/internal/lint"
	"github.com/procedures-go/procedures/internal/writerindex"
)

// lintTarget is the lint of the record at the root-relative path rel
// against the corpus under root. The hook runs the lint itself and asks
// the writers' index only for the records declaring the ids rel declares
// or links to (only those are stat-ed), then tells it rel was checked;
// without an index (o off, or none usable) every record is read.
func lintTarget(root, rel string, o writerindex.Options) (*lint.LintResult, error) {
	targets := []string{rel}
	w := writerindex.Open(root, o)
	if w == nil {
		return lint.LintTargets(root, targets)
	}
	res, err := lint.LintTargetsWith(root, targets, w.Resolve)
	if err != nil {
		w.Release()
		return lint.LintTargets(root, targets)
	}
	w.Checked(rel)
	w.Close()
	return res, nil
}
