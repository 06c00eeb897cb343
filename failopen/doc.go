// Package failopen appends one JSON-lines record per blind fail-open of a hook
// to the shared gate-failopen log, best effort and silently, so that a hook
// which could not evaluate never blocks a session yet still leaves a trace.
//
// A record is exactly
//
//	{"ts":"2026-11-30T08:34:26Z","gate":"digest-record","why":"malformed-payload","session_id":""}
//
// with the keys in that order. Every field is sanitised byte-wise to
// [A-Za-z0-9_.:-] before the reason is checked against the closed set, so no
// field can forge a key or split a line, and capped at 256 bytes: a longer
// value keeps its first 250 bytes followed by "...cut", so no payload can
// make a line long (a reason outside the closed set gains the
// "unrecognized:" prefix after the cap). The whole line goes out in a single
// write(2) on a descriptor opened with O_APPEND, so lines from concurrent
// processes never interleave. The package reads no environment variable and
// never executes another program: the caller chooses the file ([Log.Path]).
package failopen
