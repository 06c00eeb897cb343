package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The how-do-i gate in the real CLI, before the skill ran: a read-only test,
// loop or harmless prefix runs; a command whose bytes the parser and the
// shells may read differently is denied with a sentence naming why, and the
// write it hid does not happen. (A carriage return never reaches the hook:
// Claude Code 2.1.332 refuses control characters in a command itself.)
func TestE2EGateShellLayer(t *testing.T) {
	s := newSession(t, nil, true)
	if err := os.MkdirAll(filepath.Join(s.project, "cmd"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.project, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var r recorder
	s.turn("look around", nil,
		r.step(bash("[ -d cmd ] && ls cmd")),
		r.step(bash(`for f in *.go; do wc -l "$f"; done`)),
		r.step(bash("LC_ALL=C sort a.go")),
		r.step(bash("ls # \\\ntouch hidden")),
		r.step(bash("echo a\r# >hidden2")),
		r.step(bash("echo \"$\\\n(touch hidden3)\"")),
		r.step(Reply{Text: "done."}),
	)
	for i := 1; i <= 3; i++ {
		if l := r.at(t, i); l.IsError {
			t.Errorf("step %d: a read-only command was denied: %+v", i, l)
		}
	}
	if l := r.at(t, 2); !strings.Contains(l.ToolResult, "a.go") {
		t.Errorf("the loop's output did not come back: %+v", l)
	}
	// Claude Code itself refuses a command holding a control character
	// before any hook runs; the gate refuses it too (TestLexicalGateRefuses).
	if l := r.at(t, 5); !l.IsError {
		t.Errorf("step 5: a carriage return went through: %+v", l)
	}
	for i, why := range map[int]string{4: "backslash-newline at the end of a comment", 6: "$ followed by a backslash-newline"} {
		l := r.at(t, i)
		if !l.IsError || !strings.Contains(l.ToolResult, gateText) || !strings.Contains(l.ToolResult, why) {
			t.Errorf("step %d: not denied with the reason %q: %+v", i, why, l)
		}
	}
	for _, f := range []string{"hidden", "hidden2", "hidden2\r", "hidden3"} {
		if exists(filepath.Join(s.project, f)) {
			t.Errorf("the denied command wrote %s", f)
		}
	}
}
