package config

import "github.com/procedures-go/procedures/failopen"

// FailOpenLogVar names the fail-open log (a doctor's fix sets it).
const FailOpenLogVar = "GATE_FAILOPEN_LOG"

var (
	envFailOpenLog = declare(Var{
		Name:    FailOpenLogVar,
		Default: "$HOME/.claude/gate-failopen.jsonl",
		Doc:     "where every hook records a blind release, and doctor reads them",
	})
	envEscapeLog = declare(Var{
		Name:    "GATE_ESCAPE_LOG",
		Default: "$HOME/.claude/gate-escape.jsonl",
		Doc:     "where the gates and enforce-frontmatter record a switched-off release, and doctor reads them",
	})
)

// FailOpenLogPath is the fail-open log's location: $GATE_FAILOPEN_LOG when
// non-empty, else $HOME/.claude/gate-failopen.jsonl. An unset HOME counts as
// empty (the path is then /.claude/gate-failopen.jsonl); the account
// database is never read.
func FailOpenLogPath(getenv func(string) string) string {
	if p := envFailOpenLog.get(getenv); p != "" {
		return p
	}
	// Spelled as bash spells "$HOME/.claude/gate-failopen.jsonl": not cleaned,
	// so a ".." after a symlink resolves as the kernel resolves it.
	return getenv(Home) + "/.claude/gate-failopen.jsonl"
}

// FailOpenLog is the fail-open log the environment selects
// ([FailOpenLogPath]).
func FailOpenLog(getenv func(string) string) *failopen.Log {
	return &failopen.Log{Path: FailOpenLogPath(getenv)}
}

// EscapeLogPath is the escape log's location: $GATE_ESCAPE_LOG when
// non-empty, else $HOME/.claude/gate-escape.jsonl (an unset HOME counts as
// empty).
func EscapeLogPath(getenv func(string) string) string {
	if p := envEscapeLog.get(getenv); p != "" {
		return p
	}
	return getenv(Home) + "/.claude/gate-escape.jsonl"
}
