// Package procedures is the root of procedures-go: a Go re-implementation, as a
// library plus small drop-in binaries, of the machinery of a Claude Code plugin
// for procedural knowledge.
//
// The packages:
//
//   - [github.com/procedures-go/procedures/records]: the record reader:
//     store list and corpus root, record parsing, corpus scan, queries,
//     ranking, dumps of named records and recall. (The frontmatter lint is
//     internal: internal/lint.)
//   - [github.com/procedures-go/procedures/digest]: the per-session digest store
//     a forked scout leaves for the next one.
//   - [github.com/procedures-go/procedures/hookio]: hook payload decoding and
//     shape classification.
//   - [github.com/procedures-go/procedures/failopen]: the fail-open JSONL log
//     that lets a hook never block a session while still leaving a trace.
//
// Each package has runnable examples. Everything else is internal: each
// command lives in internal/cli/<command> behind one Main function, listed
// in internal/commands; the binaries under cmd/ only call that Main with the
// process's own arguments, streams and environment. The README says how to
// try it, install it into Claude Code and use it from Go; docs/ holds the
// rest, one topic a page.
package procedures
