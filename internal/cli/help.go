package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/procedures-go/procedures/internal/wiring"
)

// Help is what a command says about itself: its name and its usage text
// (a "Usage: …" synopsis, then a few lines on what it reads and writes).
type Help struct {
	Name, Usage string
}

// Answer answers the arguments every command understands and reports
// whether it did; each Main calls it first and returns code when done.
//
// -h or --help as the first argument prints the usage on stdout, and
// --version prints "<name> <version>"; both exit 0. A hook (a command the
// wiring table runs, [wiring.IsHook]), which Claude Code runs with no
// arguments, given any argument at all is done too: it never reads stdin and
// never writes a log, and for any other argument it prints the usage on
// stderr and still exits 0, because a hook never blocks a session.
func (h Help) Answer(args []string, stdout, stderr io.Writer) (code int, done bool) {
	if len(args) == 0 {
		return 0, false
	}
	switch args[0] {
	case "-h", "--help":
		fmt.Fprint(stdout, h.Usage)
		return 0, true
	case "--version":
		fmt.Fprintln(stdout, h.Name, Version())
		return 0, true
	}
	if wiring.IsHook(h.Name) {
		fmt.Fprint(stderr, h.Usage)
		return 0, true
	}
	return 0, false
}

// IsTerminal reports whether w is a terminal: an *os.File whose mode is a
// character device. Commands use it only to add a hint for a person.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
