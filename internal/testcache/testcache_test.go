package testcache

import (
	"os"
	"path/filepath"
	"testing"
)

// An index file naming a corpus below the run's directory is found; one of
// another corpus is not.
func TestLeaked(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.idx"), []byte("procedures-index 6\n\x10/tmp/base/corpus"), 0o600)
	os.WriteFile(filepath.Join(dir, "b.idx"), []byte("procedures-index 6\n\x10/home/u/.claude"), 0o600)
	got := Leaked(dir, "/tmp/base")
	if len(got) != 1 || filepath.Base(got[0]) != "a.idx" {
		t.Fatalf("Leaked = %q, want a.idx alone", got)
	}
}
