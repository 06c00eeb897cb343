// Package pluginsurfacelint implements the plugin-surface-lint command. plugin-surface-lint checks the skill surface of one plugin: every
// skill directory has a SKILL.md whose name matches it, slugs are unique and
// every ${CLAUDE_PLUGIN_ROOT}/${CLAUDE_SKILL_DIR} file pointer resolves.
//
// Usage:
//
//	plugin-surface-lint [--procedures] [--prompts] <plugin-dir>
//
// --procedures adds the procedures-plugin rules (update-records names every
// record kind; no retired log/create-new skills). --prompts adds the rules of
// the plugin's own prompts: the scout's retrieval contract in
// skills/how-do-i/SKILL.md and agents/procedure-scout.md, and the reviewer's
// evidence contract (see pluginlint.CheckPrompts). Each finding goes to stderr
// as "surface: ERROR: <message>"; stdout gets one summary line. Exit 0 when
// clean, 1 on findings, 2 on a usage error.
package pluginsurfacelint

import (
	"fmt"
	"io"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/pluginlint"
)

// Main is the command. It reads neither stdin nor the environment.
func Main(args []string, _ io.Reader, stdout, stderr io.Writer, _ cli.Env) int {
	if code, done := help.Answer(args, stdout, stderr); done {
		return code
	}
	fs := cli.FlagSet("plugin-surface-lint")
	var opt pluginlint.SurfaceOptions
	fs.BoolVar(&opt.Procedures, "procedures", false, "")
	prompts := fs.Bool("prompts", false, "")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "surface: %v\n%s\n", err, usage)
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	res, err := pluginlint.CheckSurface(fs.Arg(0), opt)
	if err != nil {
		fmt.Fprintf(stderr, "surface: %v\n", err)
		return 2
	}
	if *prompts {
		more, err := pluginlint.CheckPrompts(fs.Arg(0))
		if err != nil {
			fmt.Fprintf(stderr, "surface: %v\n", err)
			return 2
		}
		res.Findings = append(res.Findings, more...)
	}
	for _, f := range res.Findings {
		fmt.Fprintf(stderr, "surface: ERROR: %s\n", f)
	}
	fmt.Fprintf(stdout, "surface: %d skill(s), %d finding(s)\n", res.Skills, len(res.Findings))
	if len(res.Findings) > 0 {
		return 1
	}
	return 0
}

// usage is the one-line synopsis printed on a usage error.
const usage = "usage: plugin-surface-lint [--procedures] [--prompts] <plugin-dir>"
