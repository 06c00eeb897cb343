package pluginsurfacelint

import "github.com/procedures-go/procedures/internal/cli"

// help is what plugin-surface-lint answers to --help and --version.
var help = cli.Help{Name: "plugin-surface-lint", Usage: `Usage: plugin-surface-lint [--procedures] [--prompts] <plugin-dir>

Checks a plugin's skill surface: skill names, slugs and file pointers.
--prompts adds the contract of the plugin's own prompts (the scout's
retrieval loop, the reviewer's evidence rules).
Exits 0 when clean, 1 on findings, 2 on a usage error.
`}
