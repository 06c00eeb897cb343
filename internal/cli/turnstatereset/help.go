package turnstatereset

import "github.com/procedures-go/procedures/internal/cli"

// help is what turn-state-reset answers to --help and --version.
var help = cli.Help{Name: "turn-state-reset", Usage: `Usage: turn-state-reset < USERPROMPTSUBMIT-PAYLOAD

Claude Code UserPromptSubmit hook. Starts a new turn for the session in the
turn-state directory ($TURN_STATE_DIR, default /tmp/claude-turn-state).
Always exits 0.

Given any argument it reads no stdin and writes nothing: -h/--help and
--version answer on stdout, anything else prints this usage on stderr.
`}
