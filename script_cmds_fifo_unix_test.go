//go:build unix

package procedures_test

import (
	"syscall"

	"github.com/rogpeppe/go-internal/testscript"
)

// mkfifo <path>
//
// Creates a named pipe (mode 0600) at path.
func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mkfifo <path>")
	}
	ts.Check(syscall.Mkfifo(ts.MkAbs(args[0]), 0o600))
}
