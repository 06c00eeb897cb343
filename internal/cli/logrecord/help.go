package logrecord

import "github.com/procedures-go/procedures/internal/cli"

// help is what log-record answers to --help and --version.
var help = cli.Help{Name: "log-record", Hook: false, Usage: `Usage: log-record <mistake|decision|solution|failure-mode> [flags]

Appends a mistake row to $MISTAKES_JSONL (default <root>/mistakes.jsonl),
or writes a decision, solution or failure-mode record the frontmatter lint
accepts into its store under the root ($CODEX_ROOT, else $HOME/.claude).
Exits 0 when written, 1 on a refused request.
`}
