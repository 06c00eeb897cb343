package config

import "github.com/procedures-go/procedures/internal/wiring"

// Doctor is the environment the doctor reports on, read once by its
// command ([DoctorFrom]) and handed down: what each hook and record command
// would take from it.
type Doctor struct {
	// Home is $HOME as given ("" when unset or empty).
	Home string
	// BinDir is $PROCEDURES_BIN_DIR ([BinDir]).
	BinDir string
	// TurnState and Digest are the hooks' turn-state and digest settings.
	TurnState TurnState
	Digest    Digest
	// FailOpenLog and EscapeLog are the logs' paths ([FailOpenLogPath],
	// [EscapeLogPath]).
	FailOpenLog, EscapeLog string
	// PluginsDir is Claude Code's plugins directory ([ClaudePluginsDir]).
	PluginsDir string
	// Roots is the corpus root of each of [RootCommands].
	Roots map[string]CorpusRoot
	// Switches holds the value of every gate switch variable ([SwitchVars]
	// of each switch of the wiring table), "" when unset.
	Switches Switches
}

// CorpusRoot is the corpus root a record command uses and where it came
// from.
type CorpusRoot struct {
	// Root is [RecordsRoot] with the command's own variable.
	Root string
	// From names the source: "$" and the command's own variable,
	// "$CODEX_ROOT" or "$HOME/.claude".
	From string
	// HomeSet is false when the root needed HOME and HOME is empty or
	// unset: query-records then exits 1, and the others use /.claude.
	HomeSet bool
}

// RootCommands are the commands that read a corpus root, in the doctor's
// report order.
var RootCommands = []string{"query-records", "lint-frontmatter", "enforce-frontmatter", "log-record"}

// rootVar is a corpus command's own root variable ("" for log-record,
// which has none). A switch, not a map: config's init allocates next to
// nothing (TestInitAllocations).
func rootVar(command string) string {
	switch command {
	case "query-records":
		return QueryRecordsRoot
	case "lint-frontmatter":
		return LintFrontmatterRoot
	case "enforce-frontmatter":
		return KnowledgeRoot
	}
	return ""
}

// DoctorFrom reads the doctor's settings.
func DoctorFrom(getenv Getenv) Doctor {
	d := Doctor{
		Home:        getenv(Home),
		BinDir:      BinDir(getenv),
		TurnState:   TurnStateFrom(getenv),
		Digest:      DigestFrom(getenv),
		FailOpenLog: FailOpenLogPath(getenv),
		EscapeLog:   EscapeLogPath(getenv),
		PluginsDir:  ClaudePluginsDir(getenv),
		Roots:       make(map[string]CorpusRoot, len(RootCommands)),
		Switches:    Switches{},
	}
	for _, c := range RootCommands {
		d.Roots[c] = corpusRootOf(c, getenv)
	}
	for _, s := range wiring.Switches() {
		for _, name := range SwitchVars(s.Key()) {
			d.Switches[name] = getenv(name)
		}
	}
	return d
}

func corpusRootOf(command string, getenv Getenv) CorpusRoot {
	own := rootVar(command)
	root := RecordsRoot(getenv, own)
	switch {
	case own != "" && getenv(own) != "":
		return CorpusRoot{Root: root, From: "$" + own, HomeSet: true}
	case getenv(CodexRoot) != "":
		return CorpusRoot{Root: root, From: "$CODEX_ROOT", HomeSet: true}
	}
	return CorpusRoot{Root: root, From: "$HOME/.claude", HomeSet: getenv(Home) != ""}
}
