// Package oracle proves the read-only verdicts of internal/shellread by
// running them. Command generates shell command lines, deterministically
// from a seed and an index, from a grammar that combines every allow-listed
// command with its reading and writing options, braces, globs, parameters,
// substitutions, quotes, separators, pipelines, "--", "-" operands,
// redirections, comments and zsh glob qualifiers.
//
// The tests (Linux only, root, unshare, setpriv, bash and zsh) run every
// generated command that shellread.ReadOnly allows with bash -c and zsh -c
// as uid 65534 inside fresh mount, network, PID, UTS and IPC namespaces, on
// a read-only root with private tmpfs /tmp, /var/tmp, /run/lock and
// /dev/shm, and fail when anything there changed. They run only when
// PROCEDURES_ORACLE=1; see oracle_linux_test.go.
package oracle
