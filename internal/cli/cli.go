// Package cli holds the one contract every command of procedures-go is
// written against. Each command lives in its own package under internal/cli
// and exports
//
//	func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, env cli.Env) int
//
// Main holds the command's whole behaviour: argument parsing, rendering of
// library errors, and the exit status it returns (it never calls os.Exit).
// cmd/<command>/main.go only calls it with the process's own streams, and the
// multi-call binary and the test scenarios reach it by name through package
// internal/commands.
package cli

import (
	"flag"
	"io"
	"os"
)

// Env looks up one environment variable of the command's process, as
// os.LookupEnv does: its value and whether it is set at all. Production code
// passes [OSEnv]; unit tests pass a map lookup ([MapEnv]). Most commands
// only need [Env.Get].
type Env func(key string) (string, bool)

// Get is the variable's value, "" when it is unset.
func (e Env) Get(key string) string {
	v, _ := e(key)
	return v
}

// OSEnv is the process environment.
func OSEnv() Env { return os.LookupEnv }

// MapEnv reads variables from m; a nil map is an empty environment.
func MapEnv(m map[string]string) Env {
	return func(key string) (string, bool) {
		v, ok := m[key]
		return v, ok
	}
}

// MainFunc is the signature every command's Main has.
type MainFunc func(args []string, stdin io.Reader, stdout, stderr io.Writer, env Env) int

// ExtraStoreWarnings renders the warnings for rejected
// QUERY_RECORDS_EXTRA_STORES entries (see config.ExtraStores), one line
// each, as the shared store list of the bash original printed them.
func ExtraStoreWarnings(rejected []string) []byte {
	var b []byte
	for _, e := range rejected {
		b = append(b, "stores.sh: ignoring invalid QUERY_RECORDS_EXTRA_STORES entry: "+e+"\n"...)
	}
	return b
}

// FlagSet is a flag set for a command's Main: parse errors are returned,
// never printed, so the command words them itself.
func FlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}
