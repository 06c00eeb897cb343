package evidence

import (
	"regexp"
	"slices"
)

// unexpandedRE is a ${CLAUDE_…} reference left literal in a command the
// model sent: Claude Code expands the ones a prompt may use before the model
// sees them, so one in a command is one it did not expand.
var unexpandedRE = regexp.MustCompile(`\$\{CLAUDE_[A-Z0-9_]*\}`)

// retrievalFlags are the query-records flags that retrieve; --list-stores
// and the options of a query do not.
var retrievalFlags = []string{"--recall", "--search", "--keyword", "--kind", "--id", "--links-to", "--cat", "--full"}

// noteQueries records the first retrieval flag among the fork's
// query-records runs, once.
func (f *forkScan) noteQueries(queries [][]string) {
	for _, q := range queries {
		if f.firstQuery != "" {
			return
		}
		for _, a := range q {
			if slices.Contains(retrievalFlags, a) {
				f.firstQuery = a
				break
			}
		}
	}
}

// recallFirst reports whether the fork's first retrieval call was --recall
// or --search (its free-text companion in the same call).
func (f *forkScan) recallFirst() bool {
	return f.firstQuery == "--recall" || f.firstQuery == "--search"
}
