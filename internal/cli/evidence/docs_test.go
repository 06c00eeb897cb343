package evidence

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/cli"
)

// docsPage is the user page whose example outputs this test keeps true.
const docsPage = "../../../docs/evidence.md"

// example is one example of the page: a marker line
// <!-- evidence-output: ARGS --> then a fenced block holding what
// `procedures evidence ARGS` prints on a terminal for the shared fixture
// (its session of 2026-12-01, the plugin in testdata pinning how-do-i to
// opus, UTC days).
var example = regexp.MustCompile("(?s)<!-- evidence-output: ([^>]*) -->\n```text\n(.*?)```\n")

func runExample(t *testing.T, args string) string {
	t.Helper()
	home := t.TempDir()
	env := cli.Env(func(k string) (string, bool) {
		switch k {
		case "HOME":
			return home, true
		case "PROCEDURES_NO_CACHE":
			return "1", true
		case "GATE_FAILOPEN_LOG":
			return filepath.Join(home, "none.jsonl"), true
		}
		return "", false
	})
	argv := append(strings.Fields(args), "--projects", "../../evidence/testdata/nested", "--plugin", "testdata/plugin", "--timezone", "UTC")
	var out, errb bytes.Buffer
	if code := run(argv, &out, &errb, env, true); code != 0 {
		t.Fatalf("procedures evidence %s: exit %d: %s", args, code, errb.String())
	}
	return out.String()
}

// TestDocsExamples: every example output on docs/evidence.md is what the
// command prints today (PROCEDURES_UPDATE_DOCS=1 rewrites them).
func TestDocsExamples(t *testing.T) {
	page, err := os.ReadFile(docsPage)
	if err != nil {
		t.Fatal(err)
	}
	ms := example.FindAllSubmatchIndex(page, -1)
	if len(ms) < 8 {
		t.Fatalf("%s holds %d examples, want the summary, each --by view and --detail", docsPage, len(ms))
	}
	var updated bytes.Buffer
	last := 0
	for _, m := range ms {
		args, shown := string(page[m[2]:m[3]]), string(page[m[4]:m[5]])
		got := runExample(t, args)
		if got != shown && os.Getenv("PROCEDURES_UPDATE_DOCS") == "" {
			t.Errorf("procedures evidence %s prints\n%s\nthe page shows\n%s", args, got, shown)
		}
		updated.Write(page[last:m[4]])
		updated.WriteString(got)
		last = m[5]
	}
	updated.Write(page[last:])
	if os.Getenv("PROCEDURES_UPDATE_DOCS") != "" {
		if err := os.WriteFile(docsPage, updated.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
