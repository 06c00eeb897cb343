package gatelog

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// A line one byte under MaxLine is read; a line of MaxLine bytes is
// counted as over-long, never passed on, and the lines after it are read.
func TestScanLinesCap(t *testing.T) {
	in := "x\n" + strings.Repeat("a", MaxLine-1) + "\n" + strings.Repeat("b", MaxLine) + "\n\nlast"
	var got []int
	over, first, err := ScanLines(strings.NewReader(in), func(n int, line []byte) { got = append(got, n, len(line)) })
	if err != nil || over != 1 || first != 3 || fmt.Sprint(got) != fmt.Sprint([]int{1, 1, 2, MaxLine - 1, 4, 0, 5, 4}) {
		t.Errorf("ScanLines = %v (over %d, first %d, err %v)", got, over, first, err)
	}
}

// What Line writes, ParseFlat reads back; anything a logger never writes
// is refused.
func TestParseFlat(t *testing.T) {
	keys := []string{"ts", "gate", "why", "session_id"}
	vals := make([][]byte, len(keys))
	line := Line(time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC), "stop", "lib-unreadable:x y", "s1", nil)
	if !ParseFlat(line[:len(line)-1], keys, vals) || string(vals[2]) != "lib-unreadable:x_y" {
		t.Fatalf("ParseFlat(%q) refused or misread: %q", line, vals)
	}
	for _, in := range []string{
		``, `{}`, `{"ts":"a"}`, `{"ts":"a","gate":"b","why":"c","session_id":"d","x":"e"}`,
		`{"ts":"a","gate":"b","why":"c\\n","session_id":"d"}`, `{"ts":"a","gate":"b","why":"c` + "\x01" + `","session_id":"d"}`,
		`{"ts":"a","gate":"b","why":"` + "\xc2\x85" + `","session_id":"d"}`, `{"ts":"a", "gate":"b","why":"c","session_id":"d"}`,
		`{"ts":"a","gate":"b","why":"` + "\xff" + `","session_id":"d"}`, `{"ts":1,"gate":"b","why":"c","session_id":"d"}`,
	} {
		if ParseFlat([]byte(in), keys, vals) {
			t.Errorf("ParseFlat(%q) accepted", in)
		}
	}
}

// ParseTS agrees with time.Parse of TimeLayout, and refuses what the
// loggers never write (another zone, impossible dates, and fractions of a
// second, which time.Parse would take).
func TestParseTS(t *testing.T) {
	for _, s := range []string{"2026-12-01T08:00:00Z", "2024-02-29T23:59:59Z", "2026-02-29T00:00:00Z", "2026-04-31T00:00:00Z",
		"2026-12-01T24:00:00Z", "2026-12-01T08:00:00.5Z", "2026-12-01T08:00:00+01:00", "2026-13-01T00:00:00Z", "2026-1a-01T00:00:00Z"} {
		want, err := time.Parse(TimeLayout, s)
		if strings.Contains(s, ".") {
			err = fmt.Errorf("a fraction")
		}
		got, ok := ParseTS([]byte(s))
		if ok != (err == nil) || ok && !got.Equal(want) {
			t.Errorf("ParseTS(%q) = %v %v; time.Parse %v %v", s, got, ok, want, err)
		}
	}
}
