package commands

import (
	"bytes"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/cli"
)

// doctor is reachable both as `procedures doctor` and as a link or copy
// of the binary named doctor (or doctor.exe).
func TestDoctorDispatch(t *testing.T) {
	for _, c := range []struct {
		argv0 string
		args  []string
	}{
		{"/opt/p/bin/linux-amd64/procedures", []string{"doctor", "--help"}},
		{"/usr/local/bin/doctor", []string{"--help"}},
		{"/c/p/doctor.exe", []string{"--help"}},
	} {
		var out, errb bytes.Buffer
		code := Run(c.argv0, c.args, strings.NewReader(""), &out, &errb, cli.MapEnv(nil))
		if code != 0 || !strings.HasPrefix(out.String(), "Usage: procedures doctor") {
			t.Errorf("%s %q: exit %d, stdout %q, stderr %q", c.argv0, c.args, code, out.String(), errb.String())
		}
	}
}
