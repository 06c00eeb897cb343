package config

import (
	"strings"
	"testing"
)

func TestRecordStores(t *testing.T) {
	env := map[string]string{ExtraStoresVar: "/etc\tfoo..bar  a?b [x] ok\nnext ./kb kb/"}
	all, rejected := RecordStores(func(k string) string { return env[k] })
	if got := strings.Join(all[10:], " "); got != "titw ok next ./kb kb/" {
		t.Errorf("extras = %q", got)
	}
	if got := strings.Join(rejected, " "); got != "/etc foo..bar a?b [x]" {
		t.Errorf("rejected = %q", got)
	}
	all, rejected = RecordStores(func(string) string { return "" })
	if len(all) != 11 || all[10] != "titw" || rejected != nil {
		t.Errorf("unset: %q, rejected %q", all, rejected)
	}
}

func TestRecordsRoot(t *testing.T) {
	env := map[string]string{"CODEX_ROOT": "/srv/codex", "HOME": "/home/me", QueryRecordsRoot: "/kb"}
	get := func(k string) string { return env[k] }
	for _, tc := range []struct{ primary, want string }{
		{QueryRecordsRoot, "/kb"},
		{KnowledgeRoot, "/srv/codex"},
		{"", "/srv/codex"},
	} {
		if got := RecordsRoot(get, tc.primary); got != tc.want {
			t.Errorf("RecordsRoot(%q) = %q, want %q", tc.primary, got, tc.want)
		}
	}
	delete(env, "CODEX_ROOT")
	if got := RecordsRoot(get, KnowledgeRoot); got != "/home/me/.claude" {
		t.Errorf("without CODEX_ROOT: %q", got)
	}
	env["CODEX_ROOT"] = "" // empty counts as unset
	delete(env, "HOME")
	if got := RecordsRoot(get, KnowledgeRoot); got != "/.claude" {
		t.Errorf("without HOME: %q", got)
	}
}
