package config

import "testing"

// GATE_FAILOPEN_LOG wins; empty selects $HOME/.claude; HOME unset is
// treated as empty.
func TestFailOpenLogPath(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"GATE_FAILOPEN_LOG": "/x/log", "HOME": "/h"}, "/x/log"},
		{map[string]string{"GATE_FAILOPEN_LOG": "", "HOME": "/h"}, "/h/.claude/gate-failopen.jsonl"},
		// Spelled as bash's "$HOME/.claude/gate-failopen.jsonl" spells it: never
		// cleaned, so ".." after a symlink means what the kernel says it means.
		{map[string]string{"HOME": "/h/"}, "/h//.claude/gate-failopen.jsonl"},
		{map[string]string{"HOME": "/h/link/.."}, "/h/link/../.claude/gate-failopen.jsonl"},
		{map[string]string{}, "/.claude/gate-failopen.jsonl"},
	} {
		getenv := func(k string) string { return c.env[k] }
		if got := FailOpenLogPath(getenv); got != c.want {
			t.Errorf("FailOpenLogPath(%v) = %q, want %q", c.env, got, c.want)
		}
		if got := FailOpenLog(getenv).Path; got != c.want {
			t.Errorf("FailOpenLog(%v).Path = %q, want %q", c.env, got, c.want)
		}
	}
}
