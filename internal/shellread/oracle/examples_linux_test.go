package oracle

import (
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/shellread"
)

// Every example of the sweep is denied, and, run anyway, writes, runs or
// connects in the shells its Writes names (and only those): the denial is
// about something real.
func TestExamplesWriteWhenRun(t *testing.T) {
	requireOracle(t)
	prev := allow
	allow = func(string) bool { return true }
	defer func() { allow = prev }()
	cmds := map[int]string{}
	for i, e := range Examples {
		if e.Writes != "" {
			cmds[i] = e.Cmd
		}
	}
	p := startPool(t, 2)
	found, _ := check(t, p, cmds)
	p.close(t)
	caught := map[string][]string{}
	for _, f := range found {
		caught[f.cmd] = append(caught[f.cmd], f.shell)
	}
	for _, e := range Examples {
		if e.Writes == "" {
			continue
		}
		got := strings.Join(caught[e.Cmd], " ")
		if got != e.Writes {
			t.Errorf("%q run anyway: changed the sandbox in %q, want %q", e.Cmd, got, e.Writes)
		}
		if ok, _ := shellread.Judge(e.Cmd); ok {
			t.Logf("%q is still allowed here (%s layer)", e.Cmd, e.Layer)
		}
	}
}
