// Package commands is the top of the house: the table of every
// procedures-go command, by the name it is installed and invoked under, and
// the procedures multi-call binary that dispatches on it ([Run], [Main]):
// every command in one executable, chosen by the name it is run under (a
// link or copy named after the command, ".exe" stripped) or by its first
// argument (procedures <command> [args]); it also writes the plugin bundle
// (procedures bundle). The test scenarios register each entry with
// testscript.
//
// It imports every internal/cli/<command>; nothing but cmd/procedures and
// the tests imports it (TestNoArrowUpTheHouse).
package commands

import (
	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/cli/amidonegate"
	"github.com/procedures-go/procedures/internal/cli/digestrecord"
	"github.com/procedures-go/procedures/internal/cli/doctor"
	"github.com/procedures-go/procedures/internal/cli/enforcefrontmatter"
	"github.com/procedures-go/procedures/internal/cli/evidence"
	"github.com/procedures-go/procedures/internal/cli/howdoigate"
	"github.com/procedures-go/procedures/internal/cli/lintfrontmatter"
	"github.com/procedures-go/procedures/internal/cli/logrecord"
	"github.com/procedures-go/procedures/internal/cli/pluginsurfacelint"
	"github.com/procedures-go/procedures/internal/cli/queryrecords"
	"github.com/procedures-go/procedures/internal/cli/sessiondigestread"
	"github.com/procedures-go/procedures/internal/cli/tierpinlint"
	"github.com/procedures-go/procedures/internal/cli/turnstaterecord"
	"github.com/procedures-go/procedures/internal/cli/turnstatereset"
)

// Command is one entry of the table. Whether it is a Claude Code hook (it
// exits 0 on every input it is given) is the wiring table's to say
// (internal/wiring's IsHook), not the entry's.
type Command struct {
	Name    string // the executable name, as in hooks.json and on PATH
	Summary string // one line, for a command list
	Main    cli.MainFunc
}

// All lists every command, sorted by name.
var All = []Command{
	{Name: "am-i-done-gate", Summary: "Stop hook: ask once per tool-using turn for Skill(procedures:am-i-done)", Main: amidonegate.Main},
	{Name: "digest-record", Summary: "PostToolUse(Skill) hook: store a forked /how-do-i scout's digest", Main: digestrecord.Main},
	{Name: "doctor", Summary: "check the installed plugin: wiring, switches, fail-open log, stores (read-only)", Main: doctor.Main},
	{Name: "enforce-frontmatter", Summary: "PostToolUse(Write|Edit|MultiEdit) hook: block a record written with bad frontmatter", Main: enforcefrontmatter.Main},
	{Name: "evidence", Summary: "sweep the Claude Code transcripts: tier, cost, retrieval, warm starts, gates (read-only)", Main: evidence.Main},
	{Name: "how-do-i-gate", Summary: "PreToolUse hook: deny acting tools until Skill(procedures:how-do-i) ran this turn", Main: howdoigate.Main},
	{Name: "lint-frontmatter", Summary: "check the frontmatter of the knowledge-store records", Main: lintfrontmatter.Main},
	{Name: "log-record", Summary: "append a mistake row, or write a decision, solution or failure-mode record the lint accepts", Main: logrecord.Main},
	{Name: "plugin-surface-lint", Summary: "check a plugin's skill surface (names, slugs, file pointers)", Main: pluginsurfacelint.Main},
	{Name: "query-records", Summary: "query the record stores: ranked keywords, structure, --cat, --recall", Main: queryrecords.Main},
	{Name: "session-digest-read", Summary: "replay a session's stored /how-do-i digests", Main: sessiondigestread.Main},
	{Name: "tierpin-lint", Summary: "check that fork skills pin the model tier of the agent they dispatch", Main: tierpinlint.Main},
	{Name: "turn-state-record", Summary: "PostToolUse(Skill) hook: mark the gate skills as run this turn", Main: turnstaterecord.Main},
	{Name: "turn-state-reset", Summary: "UserPromptSubmit hook: start a new turn for the session", Main: turnstatereset.Main},
}

// Lookup returns the command called name.
func Lookup(name string) (Command, bool) {
	for _, c := range All {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}
