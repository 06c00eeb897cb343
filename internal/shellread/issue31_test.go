package shellread

import (
	"testing"

	"github.com/procedures-go/procedures/internal/shellread/oracle"
)

// awaitingProgramLayer would name examples still allowed while a layer of
// the classifier is unbuilt; both layers have landed, so it is empty, and
// the test fails on any example allowed.
var awaitingProgramLayer = map[string]bool{}

// Every command of the issue's sweep is refused; the shell layer's ones by
// this package alone.
func TestIssue31Examples(t *testing.T) {
	if len(oracle.Examples) < 25 {
		t.Fatalf("only %d examples", len(oracle.Examples))
	}
	for _, e := range oracle.Examples {
		ok, why := Judge(e.Cmd)
		switch {
		case awaitingProgramLayer[e.Cmd] && e.Layer != "program":
			t.Errorf("%q is a shell-layer example: it may not await the program layer", e.Cmd)
		case ok && awaitingProgramLayer[e.Cmd]:
			t.Logf("still allowed, awaiting the program layer: %q", e.Cmd)
		case ok:
			t.Errorf("allowed %q (%s layer)", e.Cmd, e.Layer)
		case awaitingProgramLayer[e.Cmd]:
			t.Errorf("refused %q (%q): remove it from awaitingProgramLayer", e.Cmd, why)
		}
	}
}

// An input redirection never opens a socket: bash connects for /dev/tcp/…
// and /dev/udp/…, so those (in any spelling) and targets not known until
// run time are refused.
func TestSocketRedirections(t *testing.T) {
	judge(t, "input redirections", []verdict{
		{"cat < /dev/tcp/h/80", D}, {"cat </dev//tcp/h/80", D}, {"cat < /dev/./udp/h/53", D},
		{"cat < //dev/tcp/h/80", D}, {"cat < /dev/tcp", D}, {"cat < \"$f\"", D}, {"cat < *", D},
		{"cat < f", A}, {"wc -l < /dev/null", A}, {"cat < /dev/tcpx", D},
	})
}
