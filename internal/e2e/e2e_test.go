package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func bash(cmd string) Reply {
	return Reply{Tool: "Bash", Input: map[string]any{"command": cmd, "description": "e2e step"}}
}

func skill(name, args string) Reply {
	return Reply{Tool: "Skill", Input: map[string]any{"skill": name, "args": args}}
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// Rows 2, 3, 4 and 7: the how-do-i gate denies Bash until the forked skill
// has run, the fork's own Bash runs, its result is stored as a digest, a new
// prompt re-arms the gate and the second fork replays the first digest; the
// plugin sits at a path with a space.
func TestE2EGatesAndDigest(t *testing.T) {
	s := newSession(t, nil, true)
	var seen []Last
	rec := func(r Reply) Step { return func(l Last) Reply { seen = append(seen, l); return r } }
	s.turn("turn 1: create the marker files", nil,
		rec(bash("touch denied-1")),
		rec(skill("procedures:how-do-i", "create marker files (turn 1)")),
		rec(bash("touch allowed-1")),
		rec(Reply{Text: "done (turn 1)."}),
	)
	for i, l := range seen {
		t.Logf("step %d saw: err=%v %q", i, l.IsError, tail(l.Text, 300))
	}
	for _, c := range s.captures() {
		t.Logf("hook %s rc=%s out=%q err=%q", c.Label, c.RC, c.Stdout, c.Stderr)
	}
	_ = filepath.Join
	_ = strings.Contains
}
