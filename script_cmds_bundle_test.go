package procedures_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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

// doc-snippet <doc.md> <name> <file>
//
// Writes to <file> the fenced code block that follows the line
// `<!-- snippet:<name> -->` in the repository's <doc.md> (a path from the
// repository root: README.md, docs/lints.md, …), so a scenario runs exactly
// what the page tells a reader to copy. For a yaml block (a CI step) it
// writes the step's `run: |` body, de-indented: the shell the CI runner
// would run.
func cmdDocSnippet(ts *testscript.TestScript, neg bool, args []string) {
	usage(ts, neg, len(args) == 3, "doc-snippet <doc.md> <name> <file>")
	writeSnippet(ts, args[0], args[1], args[2])
}

// readme-snippet <name> <file>
//
// doc-snippet README.md <name> <file>.
func cmdReadmeSnippet(ts *testscript.TestScript, neg bool, args []string) {
	usage(ts, neg, len(args) == 2, "readme-snippet <name> <file>")
	writeSnippet(ts, "README.md", args[0], args[1])
}

// writeSnippet writes the snippet name of the page doc to the file out.
func writeSnippet(ts *testscript.TestScript, doc, name, out string) {
	page, err := os.ReadFile(filepath.FromSlash(doc)) // the tests run in the repository root
	ts.Check(err)
	body, err := docSnippet(string(page), name)
	if err != nil {
		ts.Fatalf("%s: %v", doc, err)
	}
	ts.Check(os.WriteFile(ts.MkAbs(out), []byte(body), 0o644))
}

// docSnippet returns the fenced block after `<!-- snippet:<name> -->` in
// page, each line ending in LF; a yaml block's `run: |` body instead.
func docSnippet(page, name string) (string, error) {
	_, after, ok := strings.Cut(page, "<!-- snippet:"+name+" -->\n")
	if !ok {
		return "", fmt.Errorf("no <!-- snippet:%s --> marker", name)
	}
	lines := strings.Split(after, "\n")
	if !strings.HasPrefix(lines[0], "```") {
		return "", fmt.Errorf("the marker %s is not followed by a fenced block", name)
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
			return "", fmt.Errorf("the yaml block %s has no run: | body", name)
		}
		body = run
	}
	return strings.Join(body, "\n") + "\n", nil
}
