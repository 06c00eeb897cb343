package evidence

import (
	"bytes"
	"testing"
	"time"
)

// The progress line appears only once the sweep has run for more than a
// second, and the sweep's end closes it with a newline.
func TestProgress(t *testing.T) {
	var b bytes.Buffer
	p := &progress{w: &b, start: time.Now()}
	p.update(1<<20, 4<<20)
	p.end()
	if b.Len() != 0 {
		t.Errorf("a sweep under a second printed %q", b.String())
	}
	p = &progress{w: &b, start: time.Now().Add(-2 * time.Second)}
	p.update(1<<20, 4<<20)
	p.end()
	if got, want := b.String(), "\rprocedures evidence: 1/4 MB read\n"; got != want {
		t.Errorf("progress %q, want %q", got, want)
	}
}

func TestParseWeights(t *testing.T) {
	w, err := parseWeights("1, 1.25,0.1,5")
	if err != nil || w != [4]float64{1, 1.25, 0.1, 5} {
		t.Errorf("parseWeights = %v, %v", w, err)
	}
	for _, bad := range []string{"", "1,2,3", "1,2,3,4,5", "1,-2,3,4", "1,NaN,3,4", "1,2,3,1e10"} {
		if _, err := parseWeights(bad); err == nil {
			t.Errorf("parseWeights(%q) accepted", bad)
		}
	}
}
