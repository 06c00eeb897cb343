package gatelog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var at = time.Date(2026, 11, 30, 8, 34, 26, 0, time.FixedZone("CET", 3600))

// Without a classifier a reason is written as given (sanitised), the way an
// old log holds the bash original's reasons; with one, the classifier sees
// the sanitised, capped reason.
func TestLine(t *testing.T) {
	got := string(Line(at, "how-do-i", "lib-unreadable:turn state", "s\n1", nil))
	want := `{"ts":"2026-11-30T07:34:26Z","gate":"how-do-i","why":"lib-unreadable:turn_state","session_id":"s_1"}` + "\n"
	if got != want {
		t.Errorf("Line =\n%s want\n%s", got, want)
	}
	var seen string
	long := strings.Repeat("x", 300)
	Line(at, "", long, "", func(w string) string { seen = w; return UnrecognizedPrefix + w })
	if seen != strings.Repeat("x", MaxField-len(CutMarker))+CutMarker {
		t.Errorf("the classifier saw %q", seen)
	}
	if got := string(Line(at, "", "", "", nil)); !strings.Contains(got, `"gate":"unknown","why":"unknown","session_id":""`) {
		t.Errorf("defaults: %s", got)
	}
}

// AppendLine appends and creates the file, never its directory.
func TestAppendLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log.jsonl")
	for range 2 {
		if err := AppendLine(p, []byte("{}\n")); err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := os.ReadFile(p); string(b) != "{}\n{}\n" {
		t.Errorf("log %q", b)
	}
	if err := AppendLine(filepath.Join(t.TempDir(), "no", "log.jsonl"), []byte("{}\n")); err == nil {
		t.Error("appended into a missing directory")
	}
}
