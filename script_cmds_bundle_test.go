package procedures_test

import (
	"encoding/json"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// run-hook <status> <hooks.json> <event> <matcher> <command>
//
// Finds, in a generated hooks.json, the handler of <event> whose group has
// exactly <matcher> (empty for none) and whose command line ends in the word
// <command>, and runs that command line through `sh -c` the way Claude Code
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
			if f := strings.Fields(h.Command); g.Matcher == args[3] && h.Type == "command" && len(f) > 0 && f[len(f)-1] == args[4] {
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
