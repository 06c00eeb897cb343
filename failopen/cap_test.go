package failopen

import (
	"github.com/procedures-go/procedures/internal/gatelog"
	"strings"
	"testing"
)

// Every sanitised field is capped at 256 bytes; a cut one keeps its first
// 250 bytes and ends in "...cut", so a 100 MB session id cannot make a
// 100 MB log line.
func TestFieldsCapped(t *testing.T) {
	huge := strings.Repeat("a\n", 50<<20) // 100 MiB
	line := line(fixed, huge, huge, huge)
	if len(line) > 1024 {
		t.Fatalf("a line with 100 MiB fields is %d bytes, want at most 1024", len(line))
	}
	rec := parseRecord(t, line)
	want := strings.Repeat("a_", 125) + "...cut"
	if rec[1] != want || rec[3] != want {
		t.Errorf("gate %q, session_id %q, want %q", rec[1], rec[3], want)
	}
	if rec[2] != "unrecognized:"+want {
		t.Errorf("why %q, want unrecognized:%s", rec[2], want)
	}
	for _, n := range []int{0, 1, 255, 256} {
		s := strings.Repeat("b", n)
		if got := gatelog.Sanitize(s); got != s {
			t.Errorf("gatelog.Sanitize(%d bytes) = %d bytes %q, want it unchanged", n, len(got), got)
		}
	}
	if got := gatelog.Sanitize(strings.Repeat("c", 257)); got != strings.Repeat("c", 250)+"...cut" {
		t.Errorf("gatelog.Sanitize(257 bytes) = %q", got)
	}
}
