package enforcefrontmatter

import (
	"bytes"
	"github.com/procedures-go/procedures/internal/cli"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRunNeverBlocksOnBadInput(t *testing.T) {
	for _, in := range []string{"", "not json", `"str"`, "[1,2]", "null", "{}", `{"tool_input":1}`,
		`{"tool_input":{"file_path":["x.md"]}}`, `{"a":1} {"b":2}`} {
		var stderr bytes.Buffer
		if code := run(strings.NewReader(in), &stderr, func(string) string { return "" }, time.Now); code != 0 || stderr.Len() > 0 {
			t.Errorf("%q: exit %d, stderr %q", in, code, stderr.String())
		}
	}
}

// An internal failure (here: a panicking environment) releases, never blocks
// (cli.Hook; the fail-open row is lost with an environment that panics).
func TestRunRecoversToExitZero(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "references", "decisions", "bad.md")
	os.MkdirAll(filepath.Dir(p), 0o777)
	os.WriteFile(p, []byte("# no fm\n"), 0o666)
	in := `{"tool_input":{"file_path":"` + filepath.ToSlash(p) + `"}}`
	getenv := func(k string) string {
		if k == "KNOWLEDGE_ROOT" {
			return root
		}
		if strings.HasPrefix(k, "PROCEDURES_") {
			panic("boom")
		}
		return ""
	}
	var stderr bytes.Buffer
	panicking := cli.Env(func(k string) (string, bool) { return getenv(k), true })
	if code := Main(nil, strings.NewReader(in), io.Discard, &stderr, panicking); code != 0 || stderr.Len() > 0 {
		t.Errorf("exit %d, stderr %q after an internal panic, want 0 and nothing", code, stderr.String())
	}
	// The same payload without the panic blocks.
	armed := func(k string) string {
		if k == "KNOWLEDGE_ROOT" {
			return root
		}
		return ""
	}
	if code := run(strings.NewReader(in), &stderr, armed, time.Now); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
}
