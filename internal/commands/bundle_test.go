package commands

import (
	"bytes"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/wiring"
)

// bundle -h/--help prints its usage once, on stdout; --version answers as
// every command does; a mistake prints the usage once, on stderr, exit 2.
func TestBundleHelpVersion(t *testing.T) {
	for _, tc := range []struct {
		args             []string
		code             int
		stdout, stderr   string
		stdoutN, stderrN int // how many times the usage appears
	}{
		{[]string{"bundle", "-h"}, 0, "Usage: procedures bundle ", "", 1, 0},
		{[]string{"bundle", "--help"}, 0, "Usage: procedures bundle ", "", 1, 0},
		{[]string{"bundle", "--version"}, 0, "bundle " + cli.Version() + "\n", "", 0, 0},
		{[]string{"bundle", "-nope"}, 2, "", "flag provided but not defined: -nope\nUsage: procedures bundle ", 0, 1},
		{[]string{"bundle"}, 2, "", "Usage: procedures bundle ", 0, 1},
	} {
		var out, errb bytes.Buffer
		code := Run("procedures", tc.args, strings.NewReader(""), &out, &errb, cli.MapEnv(nil))
		if code != tc.code || !strings.HasPrefix(out.String(), tc.stdout) || !strings.HasPrefix(errb.String(), tc.stderr) ||
			strings.Count(out.String(), "Usage:") != tc.stdoutN || strings.Count(errb.String(), "Usage:") != tc.stderrN {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", tc.args, code, out.String(), errb.String())
		}
		if tc.stdout == "" && out.Len() > 0 {
			t.Errorf("%q: stdout %q, want none", tc.args, out.String())
		}
	}
}

// procedures --help names each hook's event and matcher as the bundle
// wires them ("PostToolUse(Write|Edit|MultiEdit) hook:").
func TestUsageShowsWiredMatchers(t *testing.T) {
	var out bytes.Buffer
	usage(&out)
	for _, h := range wiring.Hooks() {
		want := h.Event + " hook:"
		if h.Matcher != "" {
			want = h.Event + "(" + h.Matcher + ") hook:"
		}
		found := false
		for _, line := range strings.Split(out.String(), "\n") {
			if f := strings.Fields(line); len(f) > 1 && f[0] == h.Command && strings.Contains(line, want) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no %q in\n%s", h.Command, want, out.String())
		}
	}
}
