package doctor

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/procedures-go/procedures/failopen"
	"github.com/procedures-go/procedures/internal/bundle"
	"github.com/procedures-go/procedures/internal/gatelog"
)

// Every reason the logger can write, in the closed set order, plus one of
// each open-ended family.
var everyReason = []string{
	whyNoJQ, failopen.WhyResetHookNeverRan, failopen.WhyActivityUndetermined,
	failopen.WhyStoreUnwritable, failopen.WhyPayloadShapeUnrecognized, failopen.WhyMalformedPayload,
	failopen.WhyNonObjectPayload, failopen.WhySkillUnresolvable, failopen.WhyInternalError, bundle.WhyBinaryUnrunnable,
	"lib-unreadable:turn-state", "unrecognized:internal-error",
}

// foLine is a row as a logger (Go or bash) writes it: a reason doctor does
// not know is quarantined.
func foLine(ts time.Time, gate, why, sid string) string {
	return string(gatelog.Line(ts, gate, why, sid, func(w string) string {
		if knownReason([]byte(w)) {
			return w
		}
		return gatelog.UnrecognizedPrefix + w
	}))
}

// A log with rows of every reason (reason i has i+1 rows, an hour apart),
// rows before the window, and garbage of every kind: exact counts, first
// and last seen, the three most recent sessions.
func TestSummarizeFailOpenCounts(t *testing.T) {
	since := fixedNow.Add(-7 * 24 * time.Hour)
	var b strings.Builder
	for i, why := range everyReason {
		for j := 0; j <= i; j++ {
			b.WriteString(foLine(since.Add(time.Duration(j)*time.Hour), "how-do-i", why, fmt.Sprintf("s%d", j)))
		}
	}
	// Before the window: not counted in the groups.
	b.WriteString(foLine(since.Add(-time.Second), "how-do-i", "skill-unresolvable", "old"))
	// Garbage: not JSON, another shape, a reason the logger never writes,
	// escapes, a bad time, an empty gate, a blank line, a control byte.
	garbage := []string{
		"not json at all",
		`{"ts":"2026-03-09T00:00:00Z","gate":"how-do-i","why":"skill-unresolvable"}`,
		`{"ts":"2026-03-09T00:00:00Z","gate":"how-do-i","why":"made-up","session_id":"x"}`,
		`{"ts":"2026-03-09T00:00:00Z","gate":"how-do-i","why":"skill-unresolvable","session_id":"a\"b"}`,
		`{"ts":"yesterday","gate":"how-do-i","why":"skill-unresolvable","session_id":"x"}`,
		`{"ts":"2026-03-09T00:00:00Z","gate":"","why":"skill-unresolvable","session_id":"x"}`,
		``,
		"{\"ts\":\"2026-03-09T00:00:00Z\",\"gate\":\"how-do-i\",\"why\":\"no-jq\",\"session_id\":\"\x1b[31m\"}",
		` {"ts":"2026-03-09T00:00:00Z","gate":"how-do-i","why":"no-jq","session_id":"x"}`,
	}
	for _, g := range garbage {
		b.WriteString(g + "\n")
	}
	// One over-long line, and a last line without its newline (counted).
	b.WriteString(strings.Repeat("x", gatelog.MaxLine+10) + "\n")
	b.WriteString(strings.TrimSuffix(foLine(fixedNow, "am-i-done", "activity-undetermined", "tail"), "\n"))

	s, err := SummarizeFailOpen(strings.NewReader(b.String()), since)
	if err != nil {
		t.Fatal(err)
	}
	rows := len(everyReason) * (len(everyReason) + 1) / 2 // reason i has i+1 rows
	firstGarbage := rows + 1 + 1                          // the reason rows, one old row
	if s.Unparseable != len(garbage) || s.FirstUnparseable != firstGarbage {
		t.Errorf("unparseable %d (first line %d), want %d (first %d)", s.Unparseable, s.FirstUnparseable, len(garbage), firstGarbage)
	}
	if s.Overlong != 1 || s.FirstOverlong != firstGarbage+len(garbage) {
		t.Errorf("overlong %d at %d", s.Overlong, s.FirstOverlong)
	}
	if s.Older != 1 || s.InWindow != rows+1 {
		t.Errorf("older %d, in window %d; want 1, %d", s.Older, s.InWindow, rows+1)
	}
	got := map[string]*Group{}
	for _, g := range s.Groups {
		got[g.Gate+" "+g.Reason] = g
	}
	if len(got) != len(everyReason)+1 {
		t.Errorf("%d groups, want %d", len(got), len(everyReason)+1)
	}
	for i, why := range everyReason {
		g := got["how-do-i "+why]
		if g == nil {
			t.Errorf("%s: no group", why)
			continue
		}
		if g.Count != i+1 {
			t.Errorf("%s: count %d, want %d", why, g.Count, i+1)
		}
		if !g.First.Equal(since) || !g.Last.Equal(since.Add(time.Duration(i)*time.Hour)) {
			t.Errorf("%s: first %v last %v", why, g.First, g.Last)
		}
		var want []string
		for j := i; j >= 0 && j > i-3; j-- {
			want = append(want, fmt.Sprintf("s%d", j))
		}
		if strings.Join(g.Sessions, " ") != strings.Join(want, " ") {
			t.Errorf("%s: sessions %q, want %q", why, g.Sessions, want)
		}
	}
	if g := got["am-i-done activity-undetermined"]; g == nil || g.Count != 1 || g.Sessions[0] != "tail" {
		t.Errorf("unterminated last line: %+v", g)
	}
}

// The most recent rows are chosen by time, not by position: a log appended
// out of order (clock skew between hosts) still names the newest sessions.
func TestSummarizeFailOpenRecentByTime(t *testing.T) {
	var b strings.Builder
	for _, h := range []int{5, 1, 9, 3, 7} {
		b.WriteString(foLine(fixedNow.Add(time.Duration(h)*time.Hour), "g", "no-jq", fmt.Sprintf("h%d", h)))
	}
	s, err := SummarizeFailOpen(strings.NewReader(b.String()), fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.Groups[0].Sessions, " "); got != "h9 h7 h5" {
		t.Errorf("sessions %q, want h9 h7 h5", got)
	}
}

// Distinct gate/reason pairs are capped: the rest are counted, not kept.
func TestSummarizeFailOpenGroupCap(t *testing.T) {
	var b strings.Builder
	for i := range MaxGroups + 5 {
		b.WriteString(foLine(fixedNow, "g", fmt.Sprintf("x%d", i), "s"))
	}
	s, _ := SummarizeFailOpen(strings.NewReader(b.String()), fixedNow)
	if len(s.Groups) != MaxGroups || s.Overflow != 5 || s.InWindow != MaxGroups+5 {
		t.Errorf("groups %d, overflow %d, in window %d", len(s.Groups), s.Overflow, s.InWindow)
	}
}

// A line of gatelog.MaxLine-1 bytes is read; one of gatelog.MaxLine bytes is over-long.
func TestScanLinesCap(t *testing.T) {
	in := strings.Repeat("a", gatelog.MaxLine-1) + "\n" + strings.Repeat("b", gatelog.MaxLine) + "\nc\n"
	var lens []int
	over, first, err := gatelog.ScanLines(strings.NewReader(in), func(n int, line []byte) { lens = append(lens, n, len(line)) })
	if err != nil || over != 1 || first != 2 || fmt.Sprint(lens) != fmt.Sprint([]int{1, gatelog.MaxLine - 1, 3, 1}) {
		t.Errorf("over %d first %d lens %v err %v", over, first, lens, err)
	}
}

// An over-long line streams past: a 64 MiB line without a newline costs a
// few buffers of heap, not the line.
func TestOverlongLineNotBuffered(t *testing.T) {
	src := newHeapSampler("y", 64<<20)
	s, err := SummarizeFailOpen(src, fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	if s.Overlong != 1 {
		t.Errorf("overlong %d, want 1", s.Overlong)
	}
	if src.peak > 16<<20 {
		t.Errorf("peak heap %d MiB reading one 64 MiB line, want under 16 MiB", src.peak>>20)
	}
}

func TestParseFlat(t *testing.T) {
	vals := make([][]byte, 2)
	for _, c := range []struct {
		in string
		ok bool
	}{
		{`{"a":"1","b":"2"}`, true},
		{`{"a":"","b":"é"}`, true},
		{`{"b":"1","a":"2"}`, false},
		{`{"a":"1","b":"2","c":"3"}`, false},
		{`{"a":"1"}`, false},
		{`{"a":"1", "b":"2"}`, false},
		{`{"a":1,"b":"2"}`, false},
		{`{"a":"\u0041","b":"2"}`, false},
		{"{\"a\":\"\xff\",\"b\":\"2\"}", false},
		{"{\"a\":\"\u0085\",\"b\":\"2\"}", false},
		{"{\"a\":\"\x7f\",\"b\":\"2\"}", false},
		{`{"a":"1","b":"2"`, false},
		{``, false},
	} {
		if got := gatelog.ParseFlat([]byte(c.in), []string{"a", "b"}, vals); got != c.ok {
			t.Errorf("gatelog.ParseFlat(%q) = %v, want %v", c.in, got, c.ok)
		}
	}
}

func FuzzSummarizeFailOpen(f *testing.F) {
	f.Add(foLine(fixedNow, "how-do-i", "no-jq", "s") + "garbage\n\n")
	f.Add(`{"ts":"2026-03-10T12:00:00Z","gate":"g","why":"unrecognized:x","session_id":""}`)
	f.Add("{\"ts\":\"\",\"gate\":\"\xc3\",\"why\":\"\",\"session_id\":\"\"}\n")
	f.Fuzz(func(t *testing.T, in string) {
		s, err := SummarizeFailOpen(strings.NewReader(in), fixedNow.Add(-time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Count(in, "\n")
		if !strings.HasSuffix(in, "\n") && in != "" {
			lines++
		}
		if got := s.InWindow + s.Older + s.Unparseable + s.Overlong; got != lines {
			t.Fatalf("%d rows accounted for, %d lines", got, lines)
		}
		for _, g := range s.Groups {
			if !gatelog.CleanValue([]byte(g.Gate)) || !knownReason([]byte(g.Reason)) || len(g.Sessions) > recentSessions {
				t.Fatalf("untrusted group kept: %+v", g)
			}
		}
	})
}

func TestSummarizeEscapes(t *testing.T) {
	in := `{"ts":"2026-03-10T10:00:00Z","gate":"HOW_DO_I_GATE","released_by":"PROCEDURES_ENABLE_HOW_DO_I_GATE"}
{"ts":"2026-03-10T11:00:00Z","gate":"HOW_DO_I_GATE","released_by":"PROCEDURES_ENABLE_HOW_DO_I_GATE"}
{"ts":"2026-03-10T11:00:00Z","gate":"AM_I_DONE_GATE","released_by":"CLAUDE_PLUGIN_OPTION_ENABLE_AM_I_DONE_GATE"}
{"ts":"2020-01-01T00:00:00Z","gate":"AM_I_DONE_GATE","released_by":"CLAUDE_PLUGIN_OPTION_ENABLE_AM_I_DONE_GATE"}
nonsense
`
	s, err := SummarizeEscapes(strings.NewReader(in), fixedNow.Add(-7*24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if s.InWindow != 3 || s.Older != 1 || s.Unparseable != 1 ||
		s.By["HOW_DO_I_GATE by PROCEDURES_ENABLE_HOW_DO_I_GATE"] != 2 ||
		s.By["AM_I_DONE_GATE by CLAUDE_PLUGIN_OPTION_ENABLE_AM_I_DONE_GATE"] != 1 {
		t.Errorf("%+v", s)
	}
}

// parseTS agrees with time.Parse of the loggers' layout on every timestamp
// the loggers can write (time.Parse also takes a one-digit hour; the
// loggers never write one, so parseTS refuses it).
func FuzzParseTS(f *testing.F) {
	for _, s := range []string{"2026-03-10T12:00:00Z", "2026-02-29T00:00:00Z", "2024-02-29T23:59:59Z",
		"2026-04-31T00:00:00Z", "2026-13-01T00:00:00Z", "2026-03-10T24:00:00Z", "2026-03-10T12:00:60Z",
		"+026-03-10T12:00:00Z", "2026-03-10 12:00:00Z", "0000-01-01T00:00:00Z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := time.Parse(gatelog.TimeLayout, s)
		got, ok := gatelog.ParseTS([]byte(s))
		canonical := err == nil && want.Format(gatelog.TimeLayout) == s
		if ok != canonical || ok && !got.Equal(want) {
			t.Fatalf("%q: parseTS %v %v, time.Parse %v %v", s, got, ok, want, err)
		}
	})
}

// The Go hooks' reasons, the bash original's and quarantined ones are all
// rows a logger can have written; internal-error has its own advice.
func TestKnownReasons(t *testing.T) {
	for _, why := range append(everyReason, "lib-unreadable:", "unrecognized:") {
		if !knownReason([]byte(why)) {
			t.Errorf("%q not known", why)
		}
	}
	for _, why := range []string{"made-up", "no-jq2", "Lib-unreadable:x", ""} {
		if knownReason([]byte(why)) {
			t.Errorf("%q known", why)
		}
	}
	if fix := reasonFix(failopen.WhyInternalError); !strings.Contains(fix, "panicked") {
		t.Errorf("internal-error advice %q", fix)
	}
}
