package tierpinlint

import (
	"bytes"
	"strings"
	"testing"
)

const plugins = "../../../testdata/plugins"

// Exit 0 clean, 1 on findings, 2 on a usage error; the summary line on
// stdout, findings on stderr.
func TestMainExitStatusAndStreams(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		code   int
		stdout string
		stderr string // a substring
	}{
		{nil, 2, "", usage},
		{[]string{"--bogus", plugins}, 2, "", "tierpin: flag provided but not defined: -bogus\n" + usage},
		{[]string{"--min-checked", "-1", plugins}, 2, "", usage},
		{[]string{plugins + "/nope"}, 2, "", "tierpin: "},
		{[]string{plugins + "/beta"}, 1, "tierpin: 2 fork skill(s), 1 agent pin(s) checked, 2 finding(s)\n", "tierpin: ERROR: "},
		{[]string{"--all-plugins", plugins + "/.."}, 1, "tierpin: 7 fork skill(s), 5 agent pin(s) checked, 5 finding(s)\n", "tierpin: note: "},
		{[]string{"--require-fork", ",drift,,", plugins + "/alpha"}, 1, "", "tierpin: ERROR: "},
	} {
		var stdout, stderr bytes.Buffer
		code := Main(tc.args, nil, &stdout, &stderr, nil)
		if code != tc.code || (tc.stdout != "" || code == 2) && stdout.String() != tc.stdout || !strings.Contains(stderr.String(), tc.stderr) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d %q %q", tc.args, code, stdout.String(), stderr.String(), tc.code, tc.stdout, tc.stderr)
		}
	}
}

func TestNamesDropsEmptyEntries(t *testing.T) {
	if got := names(",a,,b,"); strings.Join(got, "|") != "a|b" {
		t.Errorf("names = %q", got)
	}
}
