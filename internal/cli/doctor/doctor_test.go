package doctor

import (
	"bytes"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/cli"
)

func run(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	home := "/nonexistent-doctor-home"
	code := Main(args, strings.NewReader(""), &out, &errb, cli.MapEnv(map[string]string{
		"HOME": home, "TURN_STATE_DIR": "/nonexistent-doctor-ts"}))
	return code, out.String(), errb.String()
}

func TestUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--bogus"}, "procedures doctor: flag provided but not defined: -bogus"},
		{[]string{"--since", "soon"}, `procedures doctor: --since: invalid duration "soon"`},
		{[]string{"--since", "0d"}, `procedures doctor: --since: invalid duration "0d"`},
		{[]string{"--since"}, "procedures doctor: flag needs an argument: -since"},
		{[]string{"extra"}, `procedures doctor: unexpected argument "extra"`},
	} {
		code, out, errs := run(c.args...)
		if code != 2 || out != "" || !strings.HasPrefix(errs, c.msg) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and %q", c.args, code, out, errs, c.msg)
		}
	}
}

func TestHelp(t *testing.T) {
	for _, arg := range []string{"-h", "--help"} {
		code, out, errs := run(arg)
		if code != 0 || !strings.HasPrefix(out, "Usage: procedures doctor") || errs != "" {
			t.Errorf("%s: exit %d, stderr %q", arg, code, errs)
		}
	}
	if code, out, _ := run("--version"); code != 0 || !strings.HasPrefix(out, "doctor ") {
		t.Errorf("--version: %d %q", code, out)
	}
}

// A failing finding (here the fail-open log's directory is missing) exits
// 1, in text and JSON alike.
func TestExitOnFail(t *testing.T) {
	code, out, _ := run("--plugin", t.TempDir())
	if code != 1 || !strings.Contains(out, "FAIL  location") {
		t.Errorf("text: exit %d\n%s", code, out)
	}
	code, out, _ = run("--json", "--plugin", t.TempDir())
	if code != 1 || !strings.Contains(out, `"status": "fail"`) {
		t.Errorf("json: exit %d\n%s", code, out)
	}
}
