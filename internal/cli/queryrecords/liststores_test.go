package queryrecords

import (
	"io"
	"strings"
	"testing"
)

// Issue 18: --list-stores is byte-identical to the bash original for a
// script; only a person reading a terminal sees the vendor mark.
func TestListStoresVendorMarkOnTerminal(t *testing.T) {
	defer func(f func(io.Writer) bool) { stdoutIsTerminal = f }(stdoutIsTerminal)
	env := map[string]string{"QUERY_RECORDS_ROOT": t.TempDir(), "QUERY_RECORDS_EXTRA_STORES": "team-kb"}
	for _, tty := range []bool{false, true} {
		stdoutIsTerminal = func(io.Writer) bool { return tty }
		r := invoke(env, "--list-stores")
		lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		if r.code != 0 || len(lines) != 12 {
			t.Fatalf("tty=%v: exit %d, %q", tty, r.code, r.stdout)
		}
		titw, teamkb := "titw", "team-kb"
		if tty {
			titw += "\t(vendor)"
		}
		if lines[10] != titw || lines[11] != teamkb || strings.Count(r.stdout, "(vendor)") != map[bool]int{false: 0, true: 1}[tty] {
			t.Errorf("tty=%v: %q", tty, r.stdout)
		}
	}
}
