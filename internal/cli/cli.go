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
	"strings"
)

// Env reads one environment variable of the command's process; an unset
// variable reads as "". Production code passes [OSEnv]; unit tests pass a
// map lookup ([MapEnv]).
type Env func(key string) string

// OSEnv is the process environment.
func OSEnv() Env {
	return func(key string) string {
		if name, ok := strings.CutPrefix(key, isSetProbe); ok {
			return setMark(os.LookupEnv(name))
		}
		return os.Getenv(key)
	}
}

// MapEnv reads variables from m; a nil map is an empty environment.
func MapEnv(m map[string]string) Env {
	return func(key string) string {
		if name, ok := strings.CutPrefix(key, isSetProbe); ok {
			_, set := m[name]
			return setMark("", set)
		}
		return m[key]
	}
}

// isSetProbe prefixes the key through which [Lookup] asks an Env whether a
// variable is set. No variable name holds a NUL byte, so it never collides
// with a real one.
const isSetProbe = "\x00isset\x00"

func setMark(_ string, set bool) string {
	if set {
		return "1"
	}
	return ""
}

// Lookup returns the value of key and whether it is set at all, for the rare
// command that tells an unset variable from an empty one (query-records and
// an unset HOME). [OSEnv] and [MapEnv] answer exactly; any other Env counts a
// variable as set when it is not empty.
func Lookup(env Env, key string) (string, bool) {
	if v := env(key); v != "" {
		return v, true
	}
	return "", env(isSetProbe+key) != ""
}

// MainFunc is the signature every command's Main has.
type MainFunc func(args []string, stdin io.Reader, stdout, stderr io.Writer, env Env) int

// ExtraStoreWarnings renders the warnings for rejected
// QUERY_RECORDS_EXTRA_STORES entries (see records.ExtraStores), one line
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
