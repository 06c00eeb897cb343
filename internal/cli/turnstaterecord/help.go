package turnstaterecord

import "github.com/procedures-go/procedures/internal/cli"

// help is what turn-state-record answers to --help and --version.
var help = cli.Help{Name: "turn-state-record", Usage: `Usage: turn-state-record < POSTTOOLUSE-PAYLOAD

Claude Code PostToolUse(Skill) hook. Marks Skill(procedures:how-do-i) and
Skill(procedures:am-i-done) as run this turn, in the turn-state directory
($TURN_STATE_DIR, default /tmp/claude-turn-state). Always exits 0.

Given any argument it reads no stdin and writes nothing: -h/--help and
--version answer on stdout, anything else prints this usage on stderr.
`}
