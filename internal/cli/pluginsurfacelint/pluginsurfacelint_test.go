package pluginsurfacelint

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
		stderr string
	}{
		{nil, 2, "", usage + "\n"},
		{[]string{"a", "b"}, 2, "", usage + "\n"},
		{[]string{"--bogus", plugins + "/alpha"}, 2, "", "surface: flag provided but not defined: -bogus\n" + usage + "\n"},
		{[]string{plugins + "/alpha"}, 0, "surface: 6 skill(s), 0 finding(s)\n", ""},
		{[]string{plugins + "/beta"}, 1, "surface: 3 skill(s), 1 finding(s)\n",
			"surface: ERROR: dead pointer: cross/SKILL.md -> ${CLAUDE_PLUGIN_ROOT}/scripts/missing.sh\n"},
	} {
		var stdout, stderr bytes.Buffer
		code := Main(tc.args, nil, &stdout, &stderr, nil)
		if code != tc.code || stdout.String() != tc.stdout || stderr.String() != tc.stderr {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d %q %q", tc.args, code, stdout.String(), stderr.String(), tc.code, tc.stdout, tc.stderr)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := Main([]string{plugins + "/nope"}, nil, &stdout, &stderr, nil); code != 2 || !strings.HasPrefix(stderr.String(), "surface: ") {
		t.Errorf("missing dir: exit %d, stderr %q", code, stderr.String())
	}
}
