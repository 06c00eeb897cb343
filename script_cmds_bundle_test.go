package procedures_test

import (
	"encoding/json"
	"os"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// run-hook <status> <hooks.json> <event> <matcher> <command>
//
// Finds, in a generated hooks.json, the handler of <event> whose group has
// exactly <matcher> (empty for none) and whose command line ends in the word
// <command> (before the `; . "$1"` that sources the launcher, when it has
// one), and runs that command line through `sh -c` the way Claude Code
// does (stdin from a preceding `stdin`, the script's environment, stdout and
// stderr kept like exec); it fails unless the exit status is <status>.
func cmdRunHook(ts *testscript.TestScript, neg bool, args []string) {
	usage(ts, neg, len(args) == 5, "run-hook <status> <hooks.json> <event> <matcher> <command>")
	var file struct {
		Hooks map[string][]struct {
			Matcher string
			Hooks   []struct{ Type, Command string }
		}
	}
	if err := json.Unmarshal([]byte(ts.ReadFile(args[1])), &file); err != nil {
		ts.Fatalf("run-hook: %s: %v", args[1], err)
	}
	var lines []string
	for _, g := range file.Hooks[args[2]] {
		for _, h := range g.Hooks {
			if f := strings.Fields(strings.TrimSuffix(h.Command, `; . "$1"`)); g.Matcher == args[3] && h.Type == "command" && len(f) > 0 && f[len(f)-1] == args[4] {
				lines = append(lines, h.Command)
			}
		}
	}
	if len(lines) != 1 {
		ts.Fatalf("run-hook: %d handlers for %s %q %s in %s, want 1", len(lines), args[2], args[3], args[4], args[1])
	}
	ts.Logf("sh -c %s", lines[0])
	expectStatus(ts, "run-hook", false, []string{args[0], "sh", "-c", lines[0]}, nil)
}

// readme-snippet <name> <file>
//
// Writes to <file> the fenced code block that follows the line
// `<!-- snippet:<name> -->` in the repository's README.md, so a scenario
// runs exactly what the README tells a reader to copy. For a yaml block
// (a CI step) it writes the step's `run: |` body, de-indented: the shell
// the CI runner would run.
func cmdReadmeSnippet(ts *testscript.TestScript, neg bool, args []string) {
	usage(ts, neg, len(args) == 2, "readme-snippet <name> <file>")
	readme, err := os.ReadFile("README.md") // the tests run in the repository root
	ts.Check(err)
	_, after, ok := strings.Cut(string(readme), "<!-- snippet:"+args[0]+" -->\n")
	if !ok {
		ts.Fatalf("readme-snippet: README.md has no <!-- snippet:%s --> marker", args[0])
	}
	lines := strings.Split(after, "\n")
	if !strings.HasPrefix(lines[0], "```") {
		ts.Fatalf("readme-snippet: the marker %s is not followed by a fenced block", args[0])
	}
	lang := strings.TrimPrefix(lines[0], "```")
	var body []string
	for _, l := range lines[1:] {
		if l == "```" {
			break
		}
		body = append(body, l)
	}
	if lang == "yaml" {
		var run []string
		indent, in := "", false
		for _, l := range body {
			switch {
			case strings.HasSuffix(l, "run: |") && run == nil:
				indent, in = strings.Repeat(" ", len(l)-len("run: |")+2), true
			case in && strings.HasPrefix(l, indent):
				run = append(run, strings.TrimPrefix(l, indent))
			default:
				in = false // the block ended
			}
		}
		if len(run) == 0 {
			ts.Fatalf("readme-snippet: the yaml block %s has no run: | body", args[0])
		}
		body = run
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(strings.Join(body, "\n")+"\n"), 0o644))
}
