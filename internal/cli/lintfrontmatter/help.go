package lintfrontmatter

import "github.com/procedures-go/procedures/internal/cli"

// help is what lint-frontmatter answers to --help and --version.
var help = cli.Help{Name: "lint-frontmatter", Usage: `Usage: lint-frontmatter [--] [RECORD...]
       lint-frontmatter --reach

Checks the frontmatter of the knowledge-store records under
$LINT_FRONTMATTER_ROOT (else $CODEX_ROOT, else $HOME/.claude): every record,
or only the RECORD paths given: relative to the root, or absolute or
relative to the working directory and inside the root. Exits 0 when
clean, 1 on any finding.
-h/--help and --version are options only as the first argument; -- ends
the options, so "lint-frontmatter -- --help" lints a file named --help.
--reach checks instead, for every record query-records searches, that
query-records --search for its own title ranks it in the top 5, and lists
those it does not with words that would reach them (exit 1 if any).
`}
