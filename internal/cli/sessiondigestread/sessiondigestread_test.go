package sessiondigestread

import (
	"bytes"
	"github.com/procedures-go/procedures/internal/cli"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "s1.digest.1700000001.AAAAAA"), []byte("GOAL: one\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string {
		if k == "SESSION_DIGEST_DIR" {
			return dir
		}
		return ""
	}
	for _, c := range []struct {
		args           []string
		code           int
		stdout, stderr string
	}{
		{[]string{"--read", "s1"}, 0, "==> prior /how-do-i digest 1 <==\nGOAL: one\n", ""},
		{[]string{"--read", "s1", "extra"}, 0, "==> prior /how-do-i digest 1 <==\nGOAL: one\n", ""},
		{[]string{"--read"}, 0, "", ""},
		{[]string{"--read", ""}, 0, "", ""},
		{[]string{"--read", "${CLAUDE_SESSION_ID}"}, 0, "", ""},
		{[]string{"--read", "s2"}, 0, "", ""},
		{nil, 2, "", usage},
		{[]string{"--write", "s1"}, 2, "", usage},
		{[]string{"--read=s1"}, 2, "", usage},
		{[]string{"-r", "s1"}, 2, "", usage},
		{[]string{"--READ", "s1"}, 2, "", usage},
		{[]string{"--help"}, 0, help.Usage, ""},
		{[]string{"-r", "--help"}, 2, "", usage},
	} {
		var stdout, stderr bytes.Buffer
		code := Main(c.args, strings.NewReader("forged"), &stdout, &stderr, asEnv(getenv))
		if code != c.code || stdout.String() != c.stdout || stderr.String() != c.stderr {
			t.Errorf("run(%q) = %d %q %q; want %d %q %q", c.args, code, stdout.String(), stderr.String(), c.code, c.stdout, c.stderr)
		}
	}
	if usage != "session-digest: read-only \u2014 usage: session-digest-read.sh --read <session_id>\n" {
		t.Errorf("usage line changed: %q", usage)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the reader changed the store: %v", entries)
	}
}

// asEnv reads getenv as a command's environment: an empty value is unset.
func asEnv(getenv func(string) string) cli.Env {
	return func(k string) (string, bool) { v := getenv(k); return v, v != "" }
}
