package gate

import (
	"io"
	"runtime/debug"

	"github.com/procedures-go/procedures/hookio"
)

// largePayload is the payload size past which ReadPayload sets the soft
// memory limit payloadMemoryLimit for the rest of the (short-lived) hook.
const (
	largePayload       = 1 << 20
	payloadMemoryLimit = 24 << 20
)

// ReadPayload reads and decodes a hook payload with [hookio.Read]. Any
// failure (a read error, more than 16 MiB, not exactly one JSON object)
// yields nil, which every function of this package (and every accessor of
// hookio.Payload) reads as a payload with every field absent.
func ReadPayload(r io.Reader) *hookio.Payload {
	p, err := hookio.Read(&sizeWatch{r: r})
	if err != nil {
		return nil
	}
	return p
}

// sizeWatch passes reads through and, once more than largePayload bytes
// have passed, sets the soft memory limit: reading and decoding copy the
// payload a few times over, and the limit makes the collector reclaim each
// copy before the next, so a 15 MB Bash command peaks under 64 MiB of RSS
// (issue 15) instead of ~100.
type sizeWatch struct {
	r       io.Reader
	n       int
	limited bool
}

func (w *sizeWatch) Read(b []byte) (int, error) {
	n, err := w.r.Read(b)
	if w.n += n; w.n > largePayload && !w.limited {
		debug.SetMemoryLimit(payloadMemoryLimit)
		w.limited = true
	}
	return n, err
}

// Subagent reports whether the call comes from a delegated subagent: a
// non-empty agent_id (a string, a number, true, an object or an array).
// Subagents are never gated.
func Subagent(p *hookio.Payload) bool {
	return p.Get("agent_id").Text() != ""
}
