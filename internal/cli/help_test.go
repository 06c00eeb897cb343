package cli

import (
	"bytes"
	"strings"
	"testing"
)

func TestHelpAnswer(t *testing.T) {
	cmd := Help{Name: "x-cmd", Usage: "Usage: x-cmd [args]\n"}
	hook := Help{Name: "digest-record", Usage: "Usage: digest-record < payload\n"} // a hook of the wiring table
	for _, tc := range []struct {
		h              Help
		args           []string
		code           int
		done           bool
		stdout, stderr string
	}{
		{cmd, nil, 0, false, "", ""},
		{cmd, []string{"-h"}, 0, true, cmd.Usage, ""},
		{cmd, []string{"--help"}, 0, true, cmd.Usage, ""},
		{cmd, []string{"--version"}, 0, true, "x-cmd " + Version() + "\n", ""},
		{cmd, []string{"a", "--help"}, 0, false, "", ""},
		{cmd, []string{"--bogus"}, 0, false, "", ""},
		{hook, nil, 0, false, "", ""},
		{hook, []string{"--help"}, 0, true, hook.Usage, ""},
		{hook, []string{"--version"}, 0, true, "digest-record " + Version() + "\n", ""},
		{hook, []string{"anything"}, 0, true, "", hook.Usage},
		{hook, []string{""}, 0, true, "", hook.Usage},
	} {
		var out, errb bytes.Buffer
		code, done := tc.h.Answer(tc.args, &out, &errb)
		if code != tc.code || done != tc.done || out.String() != tc.stdout || errb.String() != tc.stderr {
			t.Errorf("%s %q: (%d, %v) stdout %q stderr %q; want (%d, %v) %q %q", tc.h.Name, tc.args,
				code, done, out.String(), errb.String(), tc.code, tc.done, tc.stdout, tc.stderr)
		}
	}
	if !strings.HasPrefix(Version(), "(") && !strings.HasPrefix(Version(), "v") {
		t.Errorf("Version() = %q", Version())
	}
}
