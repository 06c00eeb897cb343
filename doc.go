// Package procedures is the root of procedures-go: a Go re-implementation, as a
// library plus small drop-in binaries, of the machinery of a Claude Code plugin
// for procedural knowledge.
//
// The packages:
//
//   - [github.com/procedures-go/procedures/records]: record stores, record
//     parsing, corpus scan, queries, ranking and `--cat` membership
//     (query-records), plus the frontmatter lint.
//   - [github.com/procedures-go/procedures/digest]: the per-session digest store
//     a forked scout leaves for the next one.
//   - [github.com/procedures-go/procedures/hookio]: hook payload decoding and
//     shape classification.
//   - [github.com/procedures-go/procedures/failopen]: the fail-open JSONL log
//     that lets a hook never block a session while still leaving a trace.
//
// The binaries under cmd/ only wire argv, the environment and stdio to these
// packages and map their errors to exit codes.
package procedures
