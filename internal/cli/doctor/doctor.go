// Package doctor is the doctor command: it inspects an installed
// procedures plugin (its wiring, switches, fail-open log and stores) and
// reports each finding as ok, warn or fail, with the fix. It only reads.
//
// Usage:
//
//	procedures doctor [--plugin DIR] [--since DURATION] [--json] [--lint]
//
// Exit 0 when nothing fails, 1 when something does, 2 on a usage error.
package doctor

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/doctor"
)

const usage = `Usage: procedures doctor [--plugin DIR] [--since DURATION] [--json] [--lint]

Checks an installed procedures plugin and the state its hooks leave, and
reports each finding as ok, warn or fail, with a reason and the fix (in
Wiring, one command to paste as printed, from any directory):

  Wiring         hooks.json, the binary each hook runs on this platform,
                 the events and matchers, each gate's skill file
  Switches       which gates are switched off, and by which variable;
                 the escape log's releases in the window
  Fail-open log  blind releases in the window, by gate and reason
  Stores         the turn-state and digest directories, the corpus roots,
                 a lint-frontmatter summary

It only reads: it never creates, changes or deletes anything.

  --plugin DIR      the plugin bundle to check (default: the bundle this
                    binary belongs to, and every copy of the procedures
                    plugin Claude Code installed: ~/.claude/plugins/
                    installed_plugins.json's, and the source folder of a
                    directory marketplace, each finding led by its path)
  --since DURATION  the window of the log summaries, e.g. 7d, 36h, 90m
                    (default 7d)
  --json            print one JSON document with the same findings
  --lint            also run tierpin-lint and plugin-surface-lint on the
                    plugin (their findings are fails in the Wiring section)

Exit status: 0 when nothing fails, 1 when something does, 2 on a usage error.
`

// TurnStateDefault, when not "", replaces the default turn-state directory
// in the report (see doctor.Options). Only tests set it: the scenarios'
// doctor command sets it before Main, so that they show the shared-host
// fallback without touching /tmp/claude-turn-state.
var TurnStateDefault string

// Main runs the doctor.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, env cli.Env) int {
	if code, done := (cli.Help{Name: "doctor", Usage: usage}).Answer(args, stdout, stderr); done {
		return code
	}
	fs := cli.FlagSet("procedures doctor")
	plugin := fs.String("plugin", "", "")
	since := fs.String("since", "7d", "")
	asJSON := fs.Bool("json", false, "")
	lint := fs.Bool("lint", false, "")
	version := fs.Bool("version", false, "")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprint(stdout, usage)
			return 0
		}
		return usageError(stderr, err.Error())
	}
	if *version {
		fmt.Fprintln(stdout, "doctor", cli.Version())
		return 0
	}
	if fs.NArg() > 0 {
		return usageError(stderr, fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	window, err := doctor.ParseDuration(*since)
	if err != nil {
		return usageError(stderr, "--since: "+err.Error())
	}
	exe, _ := os.Executable()
	r := doctor.Run(doctor.Options{
		Plugin:     *plugin,
		Since:      window,
		Now:        time.Now(),
		Settings:   config.DoctorFrom(env.Get),
		Executable: exe,
		Version:    cli.Version(),

		TurnStateDefault: TurnStateDefault,
		Lint:             *lint,
	})
	write := r.WriteText
	if *asJSON {
		write = r.WriteJSON
	}
	if err := write(stdout); err != nil {
		fmt.Fprintf(stderr, "procedures doctor: %v\n", err)
		return 1
	}
	if r.Failed() {
		return 1
	}
	return 0
}

func usageError(stderr io.Writer, msg string) int {
	fmt.Fprintf(stderr, "procedures doctor: %s\n(procedures doctor --help shows the usage)\n", msg)
	return 2
}
