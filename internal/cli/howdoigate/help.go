package howdoigate

import "github.com/procedures-go/procedures/internal/cli"

// help is what how-do-i-gate answers to --help and --version.
var help = cli.Help{Name: "how-do-i-gate", Usage: `Usage: how-do-i-gate < PRETOOLUSE-PAYLOAD

Claude Code PreToolUse hook. Denies acting tools (writes, edits, mutating
shell commands) until Skill(procedures:how-do-i) has run this turn. Reads
the hook payload on stdin; always exits 0. Switched off by
PROCEDURES_ENABLE_HOW_DO_I_GATE=false or
CLAUDE_PLUGIN_OPTION_ENABLE_HOW_DO_I_GATE=false.

Given any argument it reads no stdin and writes no log: -h/--help and
--version answer on stdout, anything else prints this usage on stderr.
`}
