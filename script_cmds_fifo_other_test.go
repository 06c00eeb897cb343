//go:build !unix

package procedures_test

import "github.com/rogpeppe/go-internal/testscript"

// cmdMkfifo: named pipes are a Unix thing.
func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	ts.Fatalf("mkfifo: named pipes need a Unix system")
}
