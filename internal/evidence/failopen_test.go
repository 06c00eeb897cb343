package evidence

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/gatelog"
)

// A fail-open line of the log format's cap or longer is counted as
// unparseable and never held; the records around it are still counted.
func TestFailOpenOverlongLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fo.jsonl")
	rec := `{"ts":"2026-12-01T19:30:40Z","gate":"how-do-i","why":"skill-unresolvable","session_id":"s1"}` + "\n"
	if err := os.WriteFile(p, []byte(rec+strings.Repeat("x", gatelog.MaxLine)+"\n"+rec), 0o600); err != nil {
		t.Fatal(err)
	}
	var sk Skipped
	got := readFailOpen(p, &Options{}, &sk)
	if got["s1"] != 2 || sk.FailOpenUnparseable != 1 {
		t.Errorf("readFailOpen = %v, unparseable %d; want s1: 2, unparseable 1", got, sk.FailOpenUnparseable)
	}
}
