package offswitch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The escape log shares the fail-open log's field cap (256 bytes, a cut
// field ends in "...cut").
func TestRecordFieldsCapped(t *testing.T) {
	log := filepath.Join(t.TempDir(), "l.jsonl")
	if err := Record(log, strings.Repeat("K", 1<<20), strings.Repeat("V", 1<<20), time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(log)
	want := `{"ts":"1970-01-01T00:00:00Z","gate":"` + strings.Repeat("K", 250) + `...cut","released_by":"` +
		strings.Repeat("V", 250) + "...cut\"}\n"
	if string(b) != want {
		t.Errorf("got %d bytes %.120q..., want %d bytes", len(b), b, len(want))
	}
}
