package sessiondigestread

import "github.com/procedures-go/procedures/internal/cli"

// help is what session-digest-read answers to --help and --version.
var help = cli.Help{Name: "session-digest-read", Usage: `Usage: session-digest-read --read <session_id>

Replays the /how-do-i digests stored for a session by digest-record, from
$SESSION_DIGEST_DIR (default: the turn-state directory's digests). Read-only;
exits 0, or 2 on any other first argument.
`}
