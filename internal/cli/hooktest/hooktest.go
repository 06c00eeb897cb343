// Package hooktest lays out, for tests, everything a gate hook reads and
// writes in a temporary directory: the turn-state directory, HOME, both gate
// logs, and a plugin tree whose bin directory has both gate skills
// installed beside it. It is imported by tests only.
package hooktest

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/cli"
)

// Sandbox makes the tree under a new temporary directory root and returns
// the environment a hook sees there:
//
//	TURN_STATE_DIR      root/tsd
//	HOME                root/home
//	GATE_FAILOPEN_LOG   root/failopen.jsonl
//	GATE_ESCAPE_LOG     root/escape.jsonl
//	PROCEDURES_BIN_DIR  root/plugin/bin
//
// with root/plugin/skills/{how-do-i,am-i-done}/SKILL.md in place (see
// [Skill]).
func Sandbox(tb testing.TB) (root string, env map[string]string) {
	tb.Helper()
	root = tb.TempDir()
	for _, d := range []string{"tsd", "home", "plugin/bin"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o777); err != nil {
			tb.Fatal(err)
		}
	}
	for _, skill := range []string{"how-do-i", "am-i-done"} {
		p := Skill(root, skill)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o666); err != nil {
			tb.Fatal(err)
		}
	}
	return root, map[string]string{
		"TURN_STATE_DIR":     filepath.Join(root, "tsd"),
		"HOME":               filepath.Join(root, "home"),
		"GATE_FAILOPEN_LOG":  filepath.Join(root, "failopen.jsonl"),
		"GATE_ESCAPE_LOG":    filepath.Join(root, "escape.jsonl"),
		"PROCEDURES_BIN_DIR": filepath.Join(root, "plugin/bin"),
	}
}

// Skill is the SKILL.md of skill in the sandbox at root.
func Skill(root, skill string) string {
	return filepath.Join(root, "plugin/skills", skill, "SKILL.md")
}

// Run runs a hook's Main on stdin with env and returns what it printed,
// failing tb unless it exits 0 with stderr empty, as every hook must.
func Run(tb testing.TB, main func([]string, io.Reader, io.Writer, io.Writer, cli.Env) int, env map[string]string, stdin string) string {
	tb.Helper()
	var out, errb strings.Builder
	if code := main(nil, strings.NewReader(stdin), &out, &errb, cli.MapEnv(env)); code != 0 || errb.Len() > 0 {
		tb.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	return out.String()
}
