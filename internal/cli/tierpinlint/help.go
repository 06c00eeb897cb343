package tierpinlint

import "github.com/procedures-go/procedures/internal/cli"

// help is what tierpin-lint answers to --help and --version.
var help = cli.Help{Name: "tierpin-lint", Usage: `Usage: tierpin-lint [--all-plugins] [--min-checked N] [--require-declaring] [--require-fork NAME,...] [--require-agent-model NAME,...] <dir>

Checks that fork skills pin the model tier of the agent they dispatch.
Exits 0 when clean, 1 on findings, 2 on a usage error.
`}
