package config

import "testing"

// The doctor reports each record command's root as that command finds it,
// where it came from, and whether HOME was needed but missing.
func TestDoctorRoots(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		cmd  string
		want CorpusRoot
	}{
		{map[string]string{"QUERY_RECORDS_ROOT": "/q", "CODEX_ROOT": "/c"}, "query-records", CorpusRoot{"/q", "$QUERY_RECORDS_ROOT", true}},
		{map[string]string{"QUERY_RECORDS_ROOT": "/q", "CODEX_ROOT": "/c"}, "lint-frontmatter", CorpusRoot{"/c", "$CODEX_ROOT", true}},
		{map[string]string{"KNOWLEDGE_ROOT": "/k", "HOME": "/h"}, "enforce-frontmatter", CorpusRoot{"/k", "$KNOWLEDGE_ROOT", true}},
		{map[string]string{"KNOWLEDGE_ROOT": "/k", "HOME": "/h"}, "log-record", CorpusRoot{"/h/.claude", "$HOME/.claude", true}},
		{map[string]string{"LINT_FRONTMATTER_ROOT": "", "HOME": ""}, "lint-frontmatter", CorpusRoot{"/.claude", "$HOME/.claude", false}},
		{nil, "query-records", CorpusRoot{"/.claude", "$HOME/.claude", false}},
	} {
		d := DoctorFrom(func(k string) string { return tc.env[k] })
		if got := d.Roots[tc.cmd]; got != tc.want {
			t.Errorf("%v %s: %+v, want %+v", tc.env, tc.cmd, got, tc.want)
		}
		if len(d.Roots) != len(RootCommands) {
			t.Errorf("%d roots, want one for each of %q", len(d.Roots), RootCommands)
		}
	}
}

// Every gate switch variable is handed over with its value, and only those.
func TestDoctorSwitches(t *testing.T) {
	d := DoctorFrom(func(k string) string { return "v-" + k })
	n := 0
	for name, v := range d.Switches {
		if v != "v-"+name {
			t.Errorf("%s = %q", name, v)
		}
		n++
	}
	for _, key := range []string{"HOW_DO_I_GATE", "AM_I_DONE_GATE"} {
		for _, name := range SwitchVars(key) {
			if _, ok := d.Switches[name]; !ok {
				t.Errorf("%s missing from %v", name, d.Switches)
			}
		}
	}
	if n < 4 {
		t.Errorf("only %d switch variables: %v", n, d.Switches)
	}
}
