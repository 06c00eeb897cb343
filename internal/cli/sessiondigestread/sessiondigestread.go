// Package sessiondigestread implements the session-digest-read command. session-digest-read replays the digests that earlier /how-do-i
// scouts of a session left, for the next scout. It is read-only by
// construction: no flag writes, stdin is never read, nothing is created,
// changed or deleted.
//
// Usage:
//
//	session-digest-read --read <session_id>
//
// A missing, empty, refused (containing '$' or '{') or unknown session id,
// or a missing store, prints nothing and exits 0. Any other first argument
// prints the usage line on stderr and exits 2.
//
// Environment: SESSION_DIGEST_DIR, TURN_STATE_DIR, SESSION_DIGEST_KEEP,
// SESSION_DIGEST_TTL_DAYS.
package sessiondigestread

import (
	"bufio"
	"fmt"
	"io"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/sessionname"
	"github.com/procedures-go/procedures/internal/turnstate"
)

// usage is the bash original's interface string, kept verbatim.
const usage = "session-digest: read-only \u2014 usage: session-digest-read.sh --read <session_id>\n"

// Main is the command. It never reads stdin; it returns 2 on a usage error
// and 0 otherwise.
func Main(args []string, _ io.Reader, stdout, stderr io.Writer, env cli.Env) int {
	if code, done := help.Answer(args, stdout, stderr); done {
		return code
	}
	if len(args) == 0 || args[0] != "--read" {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var id string
	if len(args) > 1 {
		id = args[1] // further arguments are ignored
	}
	key, ok := sessionname.Of(id, sessionname.Digest)
	if !ok {
		return 0
	}
	s := config.HooksFrom(env.Get)
	store, err := turnstate.OpenDigests(s.TurnState, s.Digest)
	if err != nil {
		return 0
	}
	w := bufio.NewWriter(stdout)
	store.Read(key, w)
	w.Flush()
	return 0
}
