package procedures_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// binDir holds every binary under ./cmd, built once for the whole suite so
// that a scenario can combine several of them (digest-record then
// session-digest-read, for instance).
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "procedures-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := func() int {
		defer os.RemoveAll(dir)
		if err := buildCommands(dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return m.Run()
	}()
	os.Exit(code)
}

// buildCommands builds every ./cmd/<name> into dir, once for the whole suite.
// A command that does not build fails the suite.
func buildCommands(dir string) error {
	args := []string{"build", "-o", dir + string(os.PathSeparator)}
	if testing.CoverMode() != "" {
		args = append(args, "-cover")
	}
	args = append(args, "./cmd/...")
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		return fmt.Errorf("go %v: %v\n%s", args, err, out)
	}
	return nil
}

// scriptCmds are the custom testscript commands. Other _test.go files of this
// package add theirs from an init function with [registerScriptCmds].
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"exitcode": cmdExitcode,
}

// registerScriptCmds adds cmds to scriptCmds; a name registered twice is a
// programming error.
func registerScriptCmds(cmds map[string]func(ts *testscript.TestScript, neg bool, args []string)) {
	for name, cmd := range cmds {
		if _, dup := scriptCmds[name]; dup {
			panic("testscript command registered twice: " + name)
		}
		scriptCmds[name] = cmd
	}
}

// cmdExitcode runs a program the way `exec` does (stdin from a preceding
// `stdin` command, stdout and stderr kept for `stdout`/`stderr`/`cmp`) and
// fails unless it exits with exactly the given status.
//
//	exitcode 2 query-records --bogus
func cmdExitcode(ts *testscript.TestScript, neg bool, args []string) {
	expectStatus(ts, "exitcode", neg, args, nil)
}

// expectStatus is the body of exitcode and its variants: args is
// <status> <program> [args...]; wrap, when non-nil, may rewrite the program
// and its arguments (to run it under another user, say) before it runs.
func expectStatus(ts *testscript.TestScript, name string, neg bool, args []string,
	wrap func(prog string, args []string) (string, []string)) {
	if neg {
		ts.Fatalf("unsupported: ! %s (name the status you expect instead)", name)
	}
	if len(args) < 2 {
		ts.Fatalf("usage: %s <status> <program> [args...]", name)
	}
	want, err := strconv.Atoi(args[0])
	if err != nil || want < 0 {
		ts.Fatalf("%s: bad status %q", name, args[0])
	}
	prog, progArgs := args[1], args[2:]
	if wrap != nil {
		prog, progArgs = wrap(prog, progArgs)
	}
	got := 0
	if err := ts.Exec(prog, progArgs...); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			ts.Fatalf("%s: %v", name, err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		Cmds:                scriptCmds,
		Condition:           scriptCondition,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") != "",
		Setup: func(env *testscript.Env) error {
			env.Setenv("PATH", binDir+string(os.PathListSeparator)+env.Getenv("PATH"))
			return nil
		},
	})
}
