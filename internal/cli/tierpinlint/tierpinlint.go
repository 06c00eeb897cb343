// Package tierpinlint implements the tierpin-lint command. tierpin-lint checks that every context: fork skill of a plugin pins
// the same model tier as the agent it dispatches.
//
// Usage:
//
//	tierpin-lint [--all-plugins] [--min-checked N] [--require-declaring]
//	             [--require-fork NAME,…] [--require-agent-model NAME,…] <dir>
//
// <dir> is a plugin root, or a repository whose plugins/*/ are all checked
// (--all-plugins, or automatically when <dir> has plugins/*/ and no skills).
// Each finding goes to stderr as "tierpin: ERROR: <message>"; stdout gets one
// summary line. Exit 0 when clean, 1 on findings, 2 on a usage error.
package tierpinlint

import (
	"fmt"
	"io"
	"strings"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/pluginlint"
)

// Main is the command. It reads neither stdin nor the environment.
func Main(args []string, _ io.Reader, stdout, stderr io.Writer, _ cli.Env) int {
	if code, done := help.Answer(args, stdout, stderr); done {
		return code
	}
	fs := cli.FlagSet("tierpin-lint")
	all := fs.Bool("all-plugins", false, "")
	var opt pluginlint.TierPinOptions
	fs.IntVar(&opt.MinChecked, "min-checked", 0, "")
	fs.BoolVar(&opt.RequireDeclaring, "require-declaring", false, "")
	fork := fs.String("require-fork", "", "")
	agents := fs.String("require-agent-model", "", "")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "tierpin: %v\n%s\n", err, usage)
		return 2
	}
	if fs.NArg() != 1 || opt.MinChecked < 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	opt.RequireFork = names(*fork)
	opt.RequireAgentModel = names(*agents)
	dir := fs.Arg(0)
	tree, err := pluginlint.Load(dir, *all || pluginlint.IsRepo(dir))
	if err != nil {
		fmt.Fprintf(stderr, "tierpin: %v\n", err)
		return 2
	}
	res := pluginlint.CheckTierPin(tree, opt)
	for _, n := range res.Notes {
		fmt.Fprintf(stderr, "tierpin: note: %s\n", n)
	}
	for _, f := range res.Findings {
		fmt.Fprintf(stderr, "tierpin: ERROR: %s\n", f)
	}
	fmt.Fprintf(stdout, "tierpin: %d fork skill(s), %d agent pin(s) checked, %d finding(s)\n",
		res.Forks, res.Pairs, len(res.Findings))
	if len(res.Findings) > 0 {
		return 1
	}
	return 0
}

// names splits a comma-separated list, dropping empty entries.
func names(s string) []string {
	var out []string
	for n := range strings.SplitSeq(s, ",") {
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}

// usage is the one-line synopsis printed on a usage error.
const usage = "usage: tierpin-lint [--all-plugins] [--min-checked N] [--require-declaring] [--require-fork NAME,...] [--require-agent-model NAME,...] <dir>"
