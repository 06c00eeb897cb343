package logrecord

import (
	"fmt"
	"io"
	"strings"

	"github.com/procedures-go/procedures/internal/cli"
)

// help is what log-record answers to --help and --version.
var help = cli.Help{Name: "log-record", Usage: `Usage: log-record <mistake|decision|solution|failure-mode> [flags]
       log-record <kind> --help

Appends a mistake row to $MISTAKES_JSONL (default <root>/mistakes.jsonl),
or writes a decision, solution or failure-mode record the frontmatter lint
accepts into its store under the root ($CODEX_ROOT, else $HOME/.claude).
Flags are "--name value" pairs; "log-record <kind> --help" lists a kind's.
Exits 0 when written, 1 on a refused request, 2 on a value that is not
valid UTF-8.
`}

// kindOrder is the order the kinds are listed in.
var kindOrder = []string{"mistake", "decision", "solution", "failure-mode"}

// flagHelp is one line per flag of each kind, in the order they are listed.
var flagHelp = map[string][][2]string{
	"mistake": {
		{"--category", "VALUE   required: the mistake's category"},
		{"--description", "VALUE   required: what went wrong"},
		{"--correction", "VALUE   required: what to do instead"},
		{"--severity", "VALUE   required: e.g. low, medium, high"},
		{"--trigger", "VALUE   required: who noticed (e.g. self, user)"},
		{"--ts", "VALUE   timestamp (default: now, UTC, 2006-01-02T15:04:05Z)"},
		{"--project", "VALUE   project, e.g. owner/repo"},
		{"--session", "VALUE   session id"},
		{"--skill", "VALUE   skill involved"},
		{"--scenario-matched", "VALUE   scenario id (\"null\" for none)"},
		{"--pattern", "VALUE   failure-mode slug this mistake is an instance of"},
		{"--face", "VALUE   face of the failure mode"},
		{"--recurrence-of", "VALUE   earlier mistake this repeats"},
	},
	"decision": {
		{"--slug", "VALUE   required: [a-z0-9][a-z0-9._-]*, file <date>-<slug>.md"},
		{"--keywords", "VALUE   required: YAML list, e.g. '[release, tags]'"},
		{"--title", "VALUE   heading (default: the slug)"},
		{"--summary", "VALUE   feeds the default body (default: the title); unused with --body"},
		{"--body", "VALUE   the whole body below the heading (replaces the default body)"},
		{"--links", "VALUE   YAML flow map (default: {})"},
		{"--status", "VALUE   status (default: active)"},
		{"--project", "VALUE   project, e.g. owner/repo"},
		{"--date", "VALUE   YYYY-MM-DD (default: today, UTC)"},
		{"--force", "        overwrite an existing record (destroys its content)"},
	},
	"solution": {
		{"--slug", "VALUE   required: [a-z0-9][a-z0-9._-]*, file <date>-<slug>.md"},
		{"--keywords", "VALUE   required: YAML list, e.g. '[ci]'"},
		{"--title", "VALUE   heading (default: the slug)"},
		{"--summary", "VALUE   feeds the default body's Rule (default: the title); unused with --body"},
		{"--body", "VALUE   the whole body below the heading (replaces the default body)"},
		{"--links", "VALUE   YAML flow map (default: {})"},
		{"--status", "VALUE   status (default: resolved)"},
		{"--project", "VALUE   project, e.g. owner/repo"},
		{"--date", "VALUE   YYYY-MM-DD (default: today, UTC)"},
		{"--situation-tags", "VALUE   YAML list (default: [])"},
		{"--resolve-after", "VALUE   YYYY-MM-DD (default: three months from today)"},
		{"--force", "        overwrite an existing record (destroys its content)"},
	},
	"failure-mode": {
		{"--slug", "VALUE   required: [a-z0-9][a-z0-9._-]*, file <slug>.md"},
		{"--rule", "VALUE   required: the rule, one sentence"},
		{"--keywords", "VALUE   required: YAML list, e.g. '[tests]'"},
		{"--mistake", "VALUE   the Mistake section (default: [pending])"},
		{"--correct", "VALUE   the Correct section (default: the rule)"},
		{"--face-of", "VALUE   slug this is a face of (skips the promotion gate)"},
		{"--links-scenario", "VALUE   links.scenario"},
		{"--links-criterion", "VALUE   links.criterion"},
		{"--mega", "VALUE   mega"},
		{"--status", "VALUE   status (default: active)"},
		{"--project", "VALUE   project, e.g. owner/repo"},
		{"--date", "VALUE   YYYY-MM-DD (default: today, UTC)"},
		{"--skip-gate", "        skip the promotion gate (3 mistakes.jsonl rows with this pattern)"},
		{"--force", "        overwrite an existing record (destroys its content)"},
	},
}

// isHelp reports whether a is a help flag.
func isHelp(a string) bool { return a == "-h" || a == "--help" }

// usageText is the general usage followed by every kind's flags.
func usageText() string {
	var b strings.Builder
	b.WriteString(help.Usage)
	for _, k := range kindOrder {
		b.WriteString("\n")
		b.WriteString(kindUsage(k))
	}
	return b.String()
}

// kindUsage lists kind's flags, one line each.
func kindUsage(kind string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "log-record %s flags:\n", kind)
	for _, f := range flagHelp[kind] {
		fmt.Fprintf(&b, "  %-18s %s\n", f[0], f[1])
	}
	return b.String()
}

// answerKindHelp prints kind's flags when "<kind> --help" was asked for.
func answerKindHelp(args []string, stdout io.Writer) bool {
	if len(args) != 2 || !isHelp(args[1]) {
		return false
	}
	if _, ok := kindFlags()[args[0]]; !ok {
		return false
	}
	fmt.Fprint(stdout, kindUsage(args[0]))
	return true
}
