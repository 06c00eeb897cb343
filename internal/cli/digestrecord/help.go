package digestrecord

import "github.com/procedures-go/procedures/internal/cli"

// help is what digest-record answers to --help and --version.
var help = cli.Help{Name: "digest-record", Usage: `Usage: digest-record < POSTTOOLUSE-PAYLOAD

Claude Code PostToolUse(Skill) hook. Stores the digest a forked
/how-do-i scout returned, under $SESSION_DIGEST_DIR, for
session-digest-read. Reads the hook payload on stdin; always exits 0; a
payload it cannot use is appended to the fail-open log ($GATE_FAILOPEN_LOG).

Given any argument it reads no stdin and writes no log: -h/--help and
--version answer on stdout, anything else prints this usage on stderr.
`}
