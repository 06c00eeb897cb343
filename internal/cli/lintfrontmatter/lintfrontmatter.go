// Package lintfrontmatter implements the lint-frontmatter command. lint-frontmatter checks the frontmatter of the knowledge-store
// records: the six required keys, non-empty keywords, project shape, links
// that resolve to a corpus id, and unique ids.
//
// Usage:
//
//	lint-frontmatter                  # every record of the ten stores
//	lint-frontmatter <path> [<path>…] # only these records (relative to ROOT,
//	                                  # or absolute/relative to the working
//	                                  # directory and inside ROOT)
//	lint-frontmatter --reach          # whether a search for each record's
//	                                  # own title ranks it in the top 5
//
// ROOT is $LINT_FRONTMATTER_ROOT, else $CODEX_ROOT, else $HOME/.claude.
// Findings go to stderr, the "linted N file(s)" line to stdout. Exit 0 when
// clean (warnings allowed), 1 on any error.
package lintfrontmatter

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/corpus"
	"github.com/procedures-go/procedures/internal/lint"
	"github.com/procedures-go/procedures/internal/lintmsg"
)

// Main is the command; see the package doc. It never reads stdin.
func Main(args []string, _ io.Reader, stdout, stderr io.Writer, env cli.Env) int {
	if code, done := help.Answer(args, stdout, stderr); done {
		return code
	}
	s := config.RecordsFrom(env.Get, config.LintFrontmatterRoot) // the one read of the environment
	if len(args) > 0 && args[0] == "--reach" {
		return reach(args[1:], stdout, stderr, s)
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:] // the paths that follow are paths, even --help
	}
	return run(args, stdout, stderr, s)
}

func run(args []string, stdout, stderr io.Writer, s config.Records) int {
	// The shared store list warns about invalid extra stores, as upstream
	// did, although the lint never reads extra stores.
	stderr.Write(cli.ExtraStoreWarnings(s.Rejected))
	root := s.Root
	var res *lint.LintResult
	var err error
	if len(args) == 0 {
		res, err = lint.LintCorpus(root)
	} else {
		var outside map[string]bool
		args, outside = targets(root, args)
		res, err = lint.LintTargets(root, args)
		if res != nil {
			noteOutside(res, root, outside)
		}
	}
	if re, ok := errors.AsType[*lint.LintRootError](err); ok {
		fmt.Fprintln(stderr, lintmsg.Line(re.Finding()))
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "❌ frontmatter-lint: %v\n", err)
		return 1
	}
	if err := lintmsg.Write(res, stdout, stderr); err != nil {
		return 1
	}
	if res.Failed() {
		return 1
	}
	return 0
}

// targets maps each argument to the root-relative path the lint reads. A
// path spelled relative to the root as a store path is taken as given (as
// the bash original did). Any other spelling, absolute or relative to the
// working directory, that lies inside the root (corpus.InRoot, as
// enforce-frontmatter decides) becomes its root-relative path. The rest
// are passed on unchanged (the lint calls them not a lintable record);
// those outside the root are reported in outside.
func targets(root string, args []string) ([]string, map[string]bool) {
	out := make([]string, len(args))
	outside := map[string]bool{}
	cwd, cwdErr := os.Getwd()
	for i, a := range args {
		out[i] = a
		if a == "" || (!filepath.IsAbs(a) && (lint.IsLintableRecord(a) || lint.IsEditableSubdocument(a))) {
			continue
		}
		p := a
		if !filepath.IsAbs(p) {
			if cwdErr != nil {
				continue
			}
			p = filepath.Join(cwd, p)
		}
		rel, ok := corpus.InRoot(root, p)
		switch {
		case !ok:
			outside[a] = true
		case lint.IsLintableRecord(rel) || lint.IsEditableSubdocument(rel):
			out[i] = rel
		}
	}
	return out, outside
}

// noteOutside adds the root and the rule to the "not a lintable record"
// finding of each target outside the root.
func noteOutside(res *lint.LintResult, root string, outside map[string]bool) {
	for i, f := range res.Findings {
		if f.Rule == lint.RuleNotARecord && outside[f.File] {
			res.Findings[i].Message += "; it is outside the root " + root +
				": name a record relative to the root, or by an absolute or working-directory-relative path inside it"
		}
	}
}
