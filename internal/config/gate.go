package config

import "github.com/procedures-go/procedures/failopen"

// Hooks is what the hook commands (the gates, the turn-state hooks,
// digest-record) and session-digest-read read from the environment. Each
// command's Main reads it once, with [HooksFrom], and passes it down: no
// package below the commands reads a variable.
type Hooks struct {
	// Home is $HOME ("" when unset): the transcripts Claude Code keeps
	// under $HOME/.claude/projects.
	Home string
	// TurnState is the turn-state directory's setting.
	TurnState TurnState
	// Digest is the digest store's setting.
	Digest Digest
	// FailOpenLog is the fail-open log's path ([FailOpenLogPath]).
	FailOpenLog string
	// EscapeLog is the escape log's path ([EscapeLogPath]).
	EscapeLog string
	// BinDir is $PROCEDURES_BIN_DIR; "" is unset.
	BinDir string
	// Entrypoint is $CLAUDE_CODE_ENTRYPOINT.
	Entrypoint string
	// Switches are the gate switch variables' values.
	Switches Switches
}

// HooksFrom reads the hooks' settings; nil getenv reads nothing.
func HooksFrom(getenv Getenv) Hooks {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	return Hooks{
		Home:        getenv(Home),
		TurnState:   TurnStateFrom(getenv),
		Digest:      DigestFrom(getenv),
		FailOpenLog: FailOpenLogPath(getenv),
		EscapeLog:   EscapeLogPath(getenv),
		BinDir:      BinDir(getenv),
		Entrypoint:  Entrypoint(getenv),
		Switches:    SwitchesFrom(getenv),
	}
}

// FailOpen is the fail-open log at FailOpenLog.
func (h Hooks) FailOpen() *failopen.Log {
	return &failopen.Log{Path: h.FailOpenLog}
}

// Switches holds the value of each gate switch variable (both channels of
// every switch of the wiring table) that is set and not empty, by name.
type Switches map[string]string

// SwitchesFrom reads every switch variable ([SwitchVars]).
func SwitchesFrom(getenv Getenv) Switches {
	s := Switches{}
	if getenv == nil {
		return s
	}
	for _, names := range switchVars {
		for _, name := range names {
			if v := getenv(name); v != "" {
				s[name] = v
			}
		}
	}
	return s
}
