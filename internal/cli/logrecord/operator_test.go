package logrecord

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/cli"
)

// Issue 18: "log-record --help" and "log-record <kind> --help" list the
// kind's flags, one line each, on stdout, exit 0.
func TestKindHelp(t *testing.T) {
	for kind, flags := range kindFlags() {
		for _, args := range [][]string{{"--help"}, {kind, "--help"}, {kind, "-h"}} {
			var out, errb bytes.Buffer
			if code := Main(args, nil, &out, &errb, cli.MapEnv(nil)); code != 0 || errb.Len() != 0 {
				t.Fatalf("%q: exit %d, stderr %q", args, code, errb.String())
			}
			for f := range flags {
				n := 0
				for _, l := range strings.Split(out.String(), "\n") {
					if strings.HasPrefix(l, "  "+f+" ") {
						n++
					}
				}
				if args[0] != "--help" && n != 1 {
					t.Errorf("%q: %d lines for %s, want 1:\n%s", args, n, f, out.String())
				}
				if args[0] == "--help" && n == 0 {
					t.Errorf("--help: no line for %s %s", kind, f)
				}
			}
		}
	}
	var out bytes.Buffer
	Main([]string{"decision", "--help"}, nil, &out, &out, cli.MapEnv(nil))
	if !strings.Contains(out.String(), "--summary") || !strings.Contains(out.String(), "unused with --body") {
		t.Errorf("decision --help does not say --summary is unused with --body:\n%s", out.String())
	}
}

// Issue 18: invalid UTF-8 in --title, --summary or --body (which go into
// the body, not the frontmatter) is refused: exit 2, the flag named,
// nothing written.
func TestInvalidUTF8BodyFlagsRefused(t *testing.T) {
	for _, kind := range []string{"decision", "solution"} {
		for _, flag := range []string{"--title", "--summary", "--body"} {
			root := t.TempDir()
			var out, errb bytes.Buffer
			args := []string{kind, "--slug", "s", "--keywords", "[k]", flag, "a\xffb"}
			code := Main(args, nil, &out, &errb, cli.MapEnv(map[string]string{"CODEX_ROOT": root}))
			if code != 2 || !strings.Contains(errb.String(), flag+" ") || !strings.Contains(errb.String(), "UTF-8") {
				t.Errorf("%s %s: exit %d, stderr %q; want exit 2 naming %s", kind, flag, code, errb.String(), flag)
			}
			if m, _ := filepath.Glob(filepath.Join(root, "references", "*", "*")); len(m) != 0 {
				t.Errorf("%s %s: wrote %v", kind, flag, m)
			}
		}
	}
	for _, flag := range []string{"--mistake", "--correct"} {
		root := t.TempDir()
		var out, errb bytes.Buffer
		args := []string{"failure-mode", "--slug", "s", "--rule", "r", "--keywords", "[k]", "--skip-gate", flag, "\xc3"}
		if code := Main(args, nil, &out, &errb, cli.MapEnv(map[string]string{"CODEX_ROOT": root})); code != 2 || !strings.Contains(errb.String(), flag+" ") {
			t.Errorf("failure-mode %s: exit %d, stderr %q", flag, code, errb.String())
		}
	}
	// valid UTF-8 still passes
	root := t.TempDir()
	var errb bytes.Buffer
	if code := Main([]string{"decision", "--slug", "s", "--keywords", "[k]", "--title", "café"}, nil, &errb, &errb,
		cli.MapEnv(map[string]string{"CODEX_ROOT": root})); code != 0 {
		t.Fatalf("valid UTF-8 title: exit %d: %s", code, errb.String())
	}
	if _, err := os.Stat(filepath.Join(root, "references")); err != nil {
		t.Fatal(err)
	}
}
