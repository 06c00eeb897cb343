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
	"io"
	"os"
)

// Env reads one environment variable of the command's process; an unset
// variable reads as "". Production code passes [OSEnv]; unit tests pass a
// map lookup ([MapEnv]).
type Env func(key string) string

// OSEnv is the process environment.
func OSEnv() Env { return os.Getenv }

// MapEnv reads variables from m; a nil map is an empty environment.
func MapEnv(m map[string]string) Env {
	return func(key string) string { return m[key] }
}

// MainFunc is the signature every command's Main has.
type MainFunc func(args []string, stdin io.Reader, stdout, stderr io.Writer, env Env) int
