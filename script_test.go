package procedures_test

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/procedures-go/procedures/internal/cli"
	clidoctor "github.com/procedures-go/procedures/internal/cli/doctor"
	"github.com/procedures-go/procedures/internal/commands"
	"github.com/procedures-go/procedures/internal/proctest"
)

var update = flag.Bool("update", false, "rewrite the scenarios' expected output files (testscript UpdateScripts)")

// TestMain registers every command of the table, and the multi-call
// procedures binary, with testscript: the test
// binary, run under a command's name, is that command, so a scenario runs
// `exec query-records …` in-process-built code and coverage counts it.
func TestMain(m *testing.M) {
	cmds := make(map[string]func(), len(commands.All))
	for _, c := range commands.All {
		cmds[c.Name] = func() { os.Exit(c.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, cli.OSEnv())) }
	}
	cmds[commands.Name] = func() { os.Exit(commands.Main()) }
	// The doctor's scenarios replace the default turn-state directory
	// through this variable (no command reads it), so that they show the
	// shared-host fallback without touching /tmp/claude-turn-state.
	doctorMain := cmds["doctor"]
	cmds["doctor"] = func() {
		clidoctor.TurnStateDefault = os.Getenv("PROCEDURES_DOCTOR_TEST_TURN_STATE_DEFAULT")
		doctorMain()
	}
	// Under -race every process sleeps 1 s at exit by default (GORACE
	// atexit_sleep_ms=1000), and the scenarios start over a thousand: that
	// alone outran go test's 10-minute timeout. testscript passes GORACE on
	// to the commands, so they sleep 10 ms instead, unless the caller chose.
	if _, ok := os.LookupEnv("GORACE"); !ok {
		os.Setenv("GORACE", "atexit_sleep_ms=10")
	}
	testscript.Main(m, cmds)
}

// scriptCondition adds the condition [root]: the scenarios run as the
// superuser.
func scriptCondition(cond string) (bool, error) {
	if cond == "root" {
		return os.Geteuid() == 0, nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		Cmds:                scriptCmds,
		Condition:           scriptCondition,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *update,
		Setup:               seedSandbox,
	})
}

// sandboxEnv is the environment every scenario starts from, on top of
// testscript's own (WORK, HOME=/no-home, TMPDIR, …): a home inside the
// work directory, and every log and store a hook writes kept under $WORK
// rather than in the real home or a shared /tmp/claude-turn-state. A
// scenario that needs another value says so with its own `env` line, which
// overrides this one; `env NAME=` empties a variable, and every command
// treats an empty value as unset.
var sandboxEnv = []struct{ name, value string }{
	{"HOME", "home"},
	{"TURN_STATE_DIR", "tsd"},
	{"GATE_FAILOPEN_LOG", "failopen.jsonl"},
	{"GATE_ESCAPE_LOG", "escape.jsonl"},
	{"PROCEDURES_BIN_DIR", "plugin/bin"},
	{"XDG_CACHE_HOME", "cache"}, // made by seedSandbox: the index's, never the user's
}

// seedSandbox is the scenarios' Params.Setup: it sets sandboxEnv, each
// value a path under the script's work directory.
func seedSandbox(env *testscript.Env) error {
	for _, v := range sandboxEnv {
		env.Setenv(v.name, filepath.Join(env.WorkDir, filepath.FromSlash(v.value)))
	}
	return os.Mkdir(filepath.Join(env.WorkDir, "cache"), 0o700)
}

// scriptCmds are the scenarios' custom commands. None takes `!`: a command
// that checks something fails on its own, and `exec`/`! exec` cover any
// non-zero status.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	// Running programs.
	"exitcode":        cmdExitcode,       // exitcode <status> <program> [args...]
	"exitcode-unpriv": cmdExitcodeUnpriv, // exitcode-unpriv <status> <program> [args...]
	"lookpath":        cmdLookPath,       // lookpath <program> <VAR>
	"repo-path":       cmdRepoPath,       // repo-path <VAR> <relpath>
	"envfile":         cmdEnvfile,        // envfile <VAR> <file>
	"run-hook":        cmdRunHook,        // run-hook <status> <hooks.json> <event> <matcher> <command>
	"readme-snippet":  cmdReadmeSnippet,  // readme-snippet <name> <file>
	"doc-snippet":     cmdDocSnippet,     // doc-snippet <doc.md> <name> <file>
	"survey-paths":    cmdSurveyPaths,    // survey-paths [-n N] [-append ref]... <VAR>
	"pathlist-min":    cmdPathlistMin,    // pathlist-min <root> <min-bytes>
	// Making files.
	"fixture":      cmdFixture,     // fixture <testdata/...> <dst>
	"assemble":     cmdAssemble,    // assemble <dst> <file|pad:N|line:KEY:N>...
	"gen-records":  cmdGenRecords,  // gen-records [-body L] <template> <dir> <prefix> <count>
	"gen-payload":  cmdGenPayload,  // gen-payload <file> <session_id> <result bytes>
	"chomp":        cmdChomp,       // chomp <file>
	"crlf":         cmdCRLF,        // crlf <file>
	"expandenv":    cmdExpandEnv,   // expandenv <file>...
	"age":          cmdAge,         // age <hours> <file>...
	"mkfifo":       cmdMkfifo,      // mkfifo <path>
	"sizedfile":    cmdSizedFile,   // sizedfile spaces|sparse <path> <size> <headfile|->
	"chown-nobody": cmdChownNobody, // chown-nobody <path>...
	// Checking files.
	"sizeatleast": cmdSizeAtLeast, // sizeatleast <file> <bytes>
	"filecount":   cmdFileCount,   // filecount <dir> <n>
	"mode":        cmdMode,        // mode <path> <octal perm>
	"snapshot":    cmdSnapshot,    // snapshot <dir>
	"digests":     cmdDigests,     // digests <dir> <n> [key]
	"digest-cat":  cmdDigestCat,   // digest-cat <dir> <key>
	"fo-log":      cmdFoLog,       // fo-log <file> [<gate> <why> <session_id>]...
	"fo-last":     cmdFoLast,      // fo-last <file> <n> <gate> <why> <session_id>
}

// usage fails the script unless the command was called without `!` and
// with an argument count that ok accepts.
func usage(ts *testscript.TestScript, neg bool, ok bool, text string) {
	if neg || !ok {
		ts.Fatalf("usage: %s", text)
	}
}

// cmdExitcode runs a program the way `exec` does (stdin from a preceding
// `stdin` command, stdout and stderr kept for `stdout`/`stderr`/`cmp`; both
// go through ts.Exec) and fails unless it exits with exactly the given
// status.
//
//	exitcode 2 query-records --bogus
//
// When to write `exec` and when `exitcode`: `exec` already fails on any
// non-zero status, so the choice says what the step pins.
//   - `exec prog …` where exit 0 only means "it worked": a CLI's success, a
//     setup step (turn-state-reset before a gate), and a gate's verdict that
//     travels on stdout (how-do-i-gate's deny, am-i-done-gate's block JSON).
//   - `exitcode N prog …` for every non-zero status the scenario expects.
//   - `exitcode 0 prog …` only where 0 is the answer and another status is
//     a possible one: enforce-frontmatter (0 passes a write, 2 blocks it),
//     and a hook in a scenario whose point is that it exits 0 whatever it is
//     given (a malformed, oversized or hostile payload, an unwritable store
//     or log, no HOME, no skill, stray arguments: the fail-open scenarios).
func cmdExitcode(ts *testscript.TestScript, neg bool, args []string) {
	expectStatus(ts, "exitcode", neg, args, nil)
}

// cmdExitcodeUnpriv is `exitcode` for scenarios that need a file the
// program cannot read. Mode 000 does not stop root, so when the suite runs
// as root the program runs through setpriv as uid/gid 65534 (nobody), after
// the directory holding it and the script's work directory (and their
// parents) are made traversable for others. As a non-root user the program
// runs directly.
func cmdExitcodeUnpriv(ts *testscript.TestScript, neg bool, args []string) {
	expectStatus(ts, "exitcode-unpriv", neg, args, func(prog string, args []string) (string, []string) {
		if os.Geteuid() == 0 {
			bin := filepath.Dir(lookPath(ts, prog))
			work := ts.Getenv("WORK")
			for _, dir := range []string{bin, filepath.Dir(bin), work, filepath.Dir(work)} {
				fi, err := os.Stat(dir)
				ts.Check(err)
				ts.Check(os.Chmod(dir, fi.Mode().Perm()|0o055))
			}
		}
		prog, args, err := proctest.Unprivileged(prog, args, ts.Getenv("WORK"))
		if err != nil {
			ts.Fatalf("exitcode-unpriv: %v", err)
		}
		return prog, args
	})
}

// expectStatus is the body of exitcode and exitcode-unpriv: args is
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
