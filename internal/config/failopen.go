package config

import "github.com/procedures-go/procedures/failopen"

// FailOpenLogPath is the fail-open log's location: $GATE_FAILOPEN_LOG when
// non-empty, else $HOME/.claude/gate-failopen.jsonl. An unset HOME counts as
// empty (the path is then /.claude/gate-failopen.jsonl); the account
// database is never read.
func FailOpenLogPath(getenv func(string) string) string {
	if p := getenv("GATE_FAILOPEN_LOG"); p != "" {
		return p
	}
	// Spelled as bash spells "$HOME/.claude/gate-failopen.jsonl": not cleaned,
	// so a ".." after a symlink resolves as the kernel resolves it.
	return getenv("HOME") + "/.claude/gate-failopen.jsonl"
}

// FailOpenLog is the fail-open log the environment selects
// ([FailOpenLogPath]).
func FailOpenLog(getenv func(string) string) *failopen.Log {
	return &failopen.Log{Path: FailOpenLogPath(getenv)}
}
