package queryrecords

import (
	"io"
	"strings"
	"testing"
)

// When stderr is a terminal, a genuine miss of a --keyword or --kind query
// says so on stderr; stdout (empty) and the exit status (0) are those of the
// bash original. Hits, other filters, usage errors and a missing root say
// nothing more, and nothing is added when stderr is not a terminal.
func TestNoMatchNoticeOnTerminal(t *testing.T) {
	root := baseRoot(t)
	env := map[string]string{"QUERY_RECORDS_ROOT": root}
	const notice = "query-records: no records match\n"
	defer func(f func(io.Writer) bool) { stderrIsTerminal = f }(stderrIsTerminal)
	for _, tty := range []bool{true, false} {
		stderrIsTerminal = func(io.Writer) bool { return tty }
		for _, tc := range []struct {
			args   []string
			notice bool
		}{
			{[]string{"--keyword", "zzznothinglikethis"}, true},
			{[]string{"--kind", "nosuchkind"}, true},
			{[]string{"--kind", "decision", "--keyword", "zzznothinglikethis"}, true},
			{[]string{"--kind", "decision"}, false},              // a hit
			{[]string{"--id", "no.such.id"}, false},              // neither --keyword nor --kind
			{[]string{"--kind", "nosuchkind", "--full"}, true},   // --full changes nothing
			{[]string{"--kind", "nosuchkind", "--bogus"}, false}, // a usage error
			{[]string{"--recall", "zzznothinglikethis"}, false},  // recall has its own count line
		} {
			r := invoke(env, tc.args...)
			want := tty && tc.notice
			if got := r.stderr == notice; got != want {
				t.Errorf("tty=%v %q: stderr %q, notice expected: %v", tty, tc.args, r.stderr, want)
			}
			if tc.notice && (r.stdout != "" || r.code != 0) {
				t.Errorf("tty=%v %q: stdout %q exit %d, want empty and 0", tty, tc.args, r.stdout, r.code)
			}
		}
	}
	// A missing root is no genuine miss: its own diagnostic only.
	stderrIsTerminal = func(io.Writer) bool { return true }
	r := invoke(map[string]string{"QUERY_RECORDS_ROOT": root + "/missing"}, "--keyword", "x")
	if r.stderr == "" || r.stderr == notice || strings.Contains(r.stderr, notice) {
		t.Errorf("missing root: stderr %q", r.stderr)
	}
}
