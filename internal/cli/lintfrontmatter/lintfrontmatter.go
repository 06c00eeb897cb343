// Package lintfrontmatter implements the lint-frontmatter command. lint-frontmatter checks the frontmatter of the knowledge-store
// records: the six required keys, non-empty keywords, project shape, links
// that resolve to a corpus id, and unique ids.
//
// Usage:
//
//	lint-frontmatter                  # every record of the ten stores
//	lint-frontmatter <path> [<path>…] # only these records (relative to ROOT)
//
// ROOT is $LINT_FRONTMATTER_ROOT, else $CODEX_ROOT, else $HOME/.claude.
// Findings go to stderr, the "linted N file(s)" line to stdout. Exit 0 when
// clean (warnings allowed), 1 on any error.
package lintfrontmatter

import (
	"errors"
	"fmt"
	"io"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/records"
)

// Main is the command; see the package doc. It never reads stdin.
func Main(args []string, _ io.Reader, stdout, stderr io.Writer, env cli.Env) int {
	if code, done := help.Answer(args, stdout, stderr); done {
		return code
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:] // the paths that follow are paths, even --help
	}
	return run(args, stdout, stderr, env.Get)
}

func run(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	// The shared store list warns about invalid extra stores, as upstream
	// did, although the lint never reads extra stores.
	_, rejected := records.ExtraStores(getenv("QUERY_RECORDS_EXTRA_STORES"))
	stderr.Write(cli.ExtraStoreWarnings(rejected))
	root := records.RootFromEnv(getenv, "LINT_FRONTMATTER_ROOT")
	var res *records.LintResult
	var err error
	if len(args) == 0 {
		res, err = records.LintCorpus(root)
	} else {
		res, err = records.LintTargets(root, args)
	}
	if re, ok := errors.AsType[*records.LintRootError](err); ok {
		fmt.Fprintln(stderr, re.Finding())
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "❌ frontmatter-lint: %v\n", err)
		return 1
	}
	if err := res.Write(stdout, stderr); err != nil {
		return 1
	}
	if res.Failed() {
		return 1
	}
	return 0
}
