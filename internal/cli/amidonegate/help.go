package amidonegate

import "github.com/procedures-go/procedures/internal/cli"

// help is what am-i-done-gate answers to --help and --version.
var help = cli.Help{Name: "am-i-done-gate", Usage: `Usage: am-i-done-gate < STOP-PAYLOAD

Claude Code Stop hook. Once per turn that used a tool, blocks the stop
until Skill(procedures:am-i-done) has run. Reads the hook payload on stdin;
always exits 0. Switched off by PROCEDURES_ENABLE_AM_I_DONE_GATE=false or
CLAUDE_PLUGIN_OPTION_ENABLE_AM_I_DONE_GATE=false.

Given any argument it reads no stdin and writes no log: -h/--help and
--version answer on stdout, anything else prints this usage on stderr.
`}
