package doctor

// This file is the one place where the doctor borrows rules that other
// packages own or are about to own: the corpus root each command reads, the
// whole-corpus frontmatter lint, where a gate looks for its skill, and the
// turn-state directory. Each is a small local function that follows the
// owning rule exactly, so that it can be re-pointed at the owner's exported
// function without touching the checks.

import (
	"os"
	"path/filepath"
	"strconv"

	"github.com/procedures-go/procedures/digest"
	"github.com/procedures-go/procedures/records"
)

// corpusCommands are the commands that read a corpus root, in report order.
var corpusCommands = []string{"query-records", "lint-frontmatter", "enforce-frontmatter", "log-record"}

// corpusRoot is the root command would use: its own variable, else
// $CODEX_ROOT, else $HOME/.claude (empty values count as unset). ok is false
// when HOME is needed but empty or unset: query-records then exits 1, and the
// others use /.claude.
func corpusRoot(command string, getenv func(string) string) (root, from string, ok bool) {
	own := map[string]string{
		"query-records":       "QUERY_RECORDS_ROOT",
		"lint-frontmatter":    "LINT_FRONTMATTER_ROOT",
		"enforce-frontmatter": "KNOWLEDGE_ROOT",
	}[command]
	for _, name := range []string{own, "CODEX_ROOT"} {
		if name == "" {
			continue
		}
		if v := getenv(name); v != "" {
			return v, "$" + name, true
		}
	}
	if getenv("HOME") == "" {
		return "/.claude", "$HOME/.claude", false
	}
	return getenv("HOME") + "/.claude", "$HOME/.claude", true
}

// lintSummary runs the whole-corpus frontmatter lint on root, read-only,
// and counts its errors (duplicate ids included) and warnings.
func lintSummary(root string) (linted, errs, warns int, err error) {
	res, err := records.LintCorpus(root)
	if err != nil {
		return 0, 0, 0, err
	}
	for _, f := range res.Findings {
		if f.Severity == records.SeverityWarning {
			warns++
		} else {
			errs++
		}
	}
	return res.Linted, errs + len(res.Duplicates), warns, nil
}

// gateSkills maps each gate hook to the skill it names.
var gateSkills = map[string]string{
	"how-do-i-gate":  "how-do-i",
	"am-i-done-gate": "am-i-done",
}

// skillPath is where a gate whose executable sits in bindir looks for
// skill: <bindir>/../skills/<skill>/SKILL.md, spelled without cleaning, so
// that ".." is resolved by the kernel (across a symlinked bin directory).
func skillPath(bindir, skill string) string {
	return bindir + "/../skills/" + skill + "/SKILL.md"
}

// hookBinDir is the directory a hook run as the executable exe takes as its
// own: $PROCEDURES_BIN_DIR when set and non-empty (the launcher sets it to
// its directory), else the directory of the executable, symlinks resolved
// as os.Executable resolves them.
func hookBinDir(getenv func(string) string, exe string) string {
	if d := getenv("PROCEDURES_BIN_DIR"); d != "" {
		return d
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	return filepath.Dir(exe)
}

// readable reports whether the current user can open path for reading.
func readable(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	return f.Close()
}

// TurnStateDefaultVar names a variable that replaces the default turn-state
// directory (/tmp/claude-turn-state) in the doctor's view only. It exists
// for tests, which must show the shared-host fallback without touching the
// real default directory; no hook reads it.
const TurnStateDefaultVar = "PROCEDURES_DOCTOR_TEST_TURN_STATE_DEFAULT"

// turnState returns the default turn-state directory and the directory the
// hooks would use: digest.TurnStateDir itself unless a test replaced the
// default, then the same rule applied to the replacement.
func turnState(getenv func(string) string) (def, dir string) {
	def = getenv(TurnStateDefaultVar)
	if def == "" {
		return digest.DefaultTurnStateDir, digest.TurnStateDir(getenv)
	}
	return def, turnStateDirWith(def, getenv)
}

// turnStateDirWith is digest.TurnStateDir with def as the default
// directory: $TURN_STATE_DIR, else def when it does not exist or is a
// directory (not a symlink) owned by the current user, else def-<uid>.
func turnStateDirWith(def string, getenv func(string) string) string {
	if d := getenv("TURN_STATE_DIR"); d != "" {
		return d
	}
	fi, err := os.Lstat(def)
	if os.IsNotExist(err) || (err == nil && fi.IsDir() && ownedByMe(fi)) {
		return def
	}
	return def + "-" + strconv.Itoa(os.Geteuid())
}
