package cli

import (
	"io"

	"github.com/procedures-go/procedures/failopen"
	"github.com/procedures-go/procedures/internal/config"
)

// Hook is a Claude Code hook command: the one wrapper every hook's Main
// goes through, so that every hook answers its arguments and fails open the
// same way. Which commands are hooks is declared once, in the wiring table
// (internal/wiring).
type Hook struct {
	// Help answers the hook's arguments (see [Help.Answer]).
	Help Help
	// Label is the gate the hook's fail-open rows are recorded under; ""
	// means Help.Name.
	Label string
	// Body is the hook's work once its arguments are answered: it reads the
	// payload from stdin and returns the exit status (0, or 2 for a
	// deliberate block). It prints its decision last, so a panic before
	// that leaves stdout empty.
	Body func(stdin io.Reader, stdout, stderr io.Writer, env Env) int
}

// Main runs the hook. Given any argument it only answers it (no stdin, no
// log). A panic inside Body is a release, never a block: it is recorded as
// internal-error under Label in the fail-open log, and Main returns 0.
func (h Hook) Main(args []string, stdin io.Reader, stdout, stderr io.Writer, env Env) (code int) {
	if code, done := h.Help.Answer(args, stdout, stderr); done {
		return code
	}
	defer func() {
		if recover() != nil {
			code = 0
			h.recordPanic(env)
		}
	}()
	return h.Body(stdin, stdout, stderr, env)
}

// recordPanic appends the internal-error row. An environment that panics
// too loses the row: the hook still exits 0.
func (h Hook) recordPanic(env Env) {
	defer func() { _ = recover() }()
	label := h.Label
	if label == "" {
		label = h.Help.Name
	}
	_ = config.FailOpenLog(env.Get).Record(label, failopen.WhyInternalError, "")
}
