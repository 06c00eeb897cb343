package turnstaterecord

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/cli"
)

// Only a Skill call of the gates' two skills, by their exact names, marks
// the session; it exits 0 and prints nothing either way.
func TestMainMarksTheGateSkills(t *testing.T) {
	for _, c := range []struct {
		stdin string
		want  []string // the marker files afterwards
	}{
		{`{"session_id":"s","tool_name":"Skill","tool_input":{"skill":"procedures:how-do-i"}}`, []string{"s.how_do_i"}},
		{`{"session_id":"s","tool_name":"Skill","tool_input":{"skill":"am-i-done"}}`, []string{"s.am_i_done"}},
		{`{"session_id":"s","tool_name":"Skill","tool_input":{"skill":"evil:how-do-i"}}`, nil},
		{`{"session_id":"s","tool_name":"Bash","tool_input":{"skill":"how-do-i"}}`, nil},
		{`[`, nil},
	} {
		dir := t.TempDir()
		var out, errb strings.Builder
		code := Main(nil, strings.NewReader(c.stdin), &out, &errb, cli.MapEnv(map[string]string{"TURN_STATE_DIR": dir}))
		if code != 0 || out.Len()+errb.Len() > 0 {
			t.Fatalf("%s: exit %d, stdout %q, stderr %q", c.stdin, code, out.String(), errb.String())
		}
		var got []string
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			got = append(got, e.Name())
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: markers %q, want %q", c.stdin, got, c.want)
		}
	}
}
