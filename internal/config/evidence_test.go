package config

import (
	"path/filepath"
	"testing"
)

// The evidence command's settings, read once: the cache directory is the
// index's unless PROCEDURES_NO_CACHE turns it off ("0" does not).
func TestEvidenceFrom(t *testing.T) {
	home := t.TempDir()
	for _, c := range []struct {
		noCache, memLimit string
		wantCache         string
		wantLimit         bool
	}{
		{"", "", filepath.Join(home, ".cache", "procedures"), false},
		{"0", "64MiB", filepath.Join(home, ".cache", "procedures"), true},
		{"1", "", "", false},
	} {
		got := EvidenceFrom(env(map[string]string{Home: home, noCacheVar.Name: c.noCache, envGOMEMLIMIT.Name: c.memLimit}))
		want := Evidence{Home: home, FailOpenLog: home + "/.claude/gate-failopen.jsonl", CacheDir: c.wantCache, MemLimitSet: c.wantLimit}
		if got != want {
			t.Errorf("EvidenceFrom(no cache %q, limit %q) = %+v, want %+v", c.noCache, c.memLimit, got, want)
		}
	}
}
