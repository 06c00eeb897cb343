package enforcefrontmatter

import "github.com/procedures-go/procedures/internal/cli"

// help is what enforce-frontmatter answers to --help and --version.
var help = cli.Help{Name: "enforce-frontmatter", Usage: `Usage: enforce-frontmatter < POSTTOOLUSE-PAYLOAD

Claude Code PostToolUse(Write|Edit|MultiEdit) hook. When the written file
is a record under $KNOWLEDGE_ROOT (else $CODEX_ROOT, else $HOME/.claude),
lints its frontmatter and, on a violation, prints a FRONTMATTER: block on
stderr and exits 2; otherwise exits 0. Switched off by
PROCEDURES_ENABLE_FRONTMATTER_CHECK=false or
CLAUDE_PLUGIN_OPTION_ENABLE_FRONTMATTER_CHECK=false.

Given any argument it reads no stdin and writes no log: -h/--help and
--version answer on stdout, anything else prints this usage on stderr
(exit 0).
`}
