package evidence

import "testing"

func TestRecallFirstAndUnexpanded(t *testing.T) {
	for _, tc := range []struct {
		cmds []string
		want bool
	}{
		{[]string{`procedures query-records --list-stores; procedures query-records --recall "a b"`, `procedures query-records --keyword a`}, true},
		{[]string{`procedures query-records --list-stores`, `procedures query-records --search "a b"`}, true},
		{[]string{`procedures query-records --keyword a`, `procedures query-records --recall a`}, false},
		{[]string{`sh "/p/bin/procedures" session-digest-read --read x`, `sh "/p/bin/procedures" query-records --cat references/a.md`}, false},
	} {
		var f forkScan
		for _, c := range tc.cmds {
			f.noteQueries(classify(c).queries)
		}
		if f.recallFirst() != tc.want {
			t.Errorf("%q: recallFirst = %v, want %v", tc.cmds, f.recallFirst(), tc.want)
		}
	}
	if !classify(`sh "${CLAUDE_PLUGIN_DIR}/bin/procedures" query-records --list-stores`).unexpanded {
		t.Error("a literal ${CLAUDE_PLUGIN_DIR} is not counted unexpanded")
	}
}
