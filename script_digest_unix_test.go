//go:build unix

package procedures_test

import (
	"syscall"

	"github.com/rogpeppe/go-internal/testscript"
)

// Unix-only testscript commands for the digest, hook and fail-open scenarios.
func init() {
	registerScriptCmds(map[string]func(*testscript.TestScript, bool, []string){"dg-mkfifo": cmdDGMkfifo})
}

// dg-mkfifo <path>
//
// Creates a named pipe (mode 0600) at path.
func cmdDGMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: dg-mkfifo <path>")
	}
	ts.Check(syscall.Mkfifo(ts.MkAbs(args[0]), 0o600))
}
