package evidence

import (
	"os"
	"path/filepath"
	"testing"
)

// A warm run reads the cache file's head alone: a head longer than the
// first read is read on, a damaged body does not stop the memo (the head
// checks itself), and once the memo cannot answer, the damaged body is
// not trusted: every file is read again, and the report is the uncached
// one's.
func TestCacheHeadFirst(t *testing.T) {
	shortRacy(t)
	old := headRead
	headRead = int64(len(cacheMagic)) + 12 // the magic, the version, the head's length
	t.Cleanup(func() { headRead = old })
	root := t.TempDir()
	projects := filepath.Join(root, "projects")
	if err := os.CopyFS(projects, os.DirFS("testdata/nested")); err != nil {
		t.Fatal(err)
	}
	cacheDir := filepath.Join(root, "cache")
	settle(t)
	differ(t, "cold", projects, cacheDir, Options{})
	files := int64(7)
	if st := differ(t, "warm", projects, cacheDir, Options{}); st != [3]int64{files, 0, 1} {
		t.Fatalf("warm with a long head: %v hits/resumes/memo, want the memo", st)
	}
	paths, _ := filepath.Glob(filepath.Join(cacheDir, "evidence-*.cache"))
	if len(paths) != 1 {
		t.Fatalf("cache files %v, want one", paths)
	}
	b, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-5] ^= 0xff // the body's last byte before its CRC
	if err := os.WriteFile(paths[0], b, 0o600); err != nil {
		t.Fatal(err)
	}
	if st := differ(t, "damaged body, warm", projects, cacheDir, Options{}); st != [3]int64{files, 0, 1} {
		t.Errorf("damaged body, warm: %v hits/resumes/memo, want the memo", st)
	}
	if st := differ(t, "damaged body, another option", projects, cacheDir, Options{Skill: Main}); st != [3]int64{0, 0, 0} {
		t.Errorf("damaged body, another option: %v hits/resumes/memo, want every file read", st)
	}
	if st := differ(t, "rebuilt", projects, cacheDir, Options{Skill: "how-do-i"}); st != [3]int64{files, 0, 0} {
		t.Errorf("rebuilt: %v hits/resumes/memo, want every file a hit", st)
	}
}
