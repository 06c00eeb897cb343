package corpus

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// lstat hands fstatat a NUL-terminated copy of the name: it stats exactly
// the file named (not one named by a prefix), reuses its buffer across
// names of every length, and refuses a name holding a NUL byte.
func TestStatterLstat(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "d"), 0o755)
	for _, n := range []string{"a", "ab.md", "a-much-longer-name.md"} {
		os.WriteFile(filepath.Join(root, "d", n), []byte(n), 0o644)
	}
	os.Symlink("a", filepath.Join(root, "d", "link"))
	s := newStatter(root)
	defer s.close()
	for _, n := range []string{"a-much-longer-name.md", "a", "ab.md", "a"} {
		st, ok := s.lstat("d/" + n)
		var want syscall.Stat_t
		syscall.Lstat(filepath.Join(root, "d", n), &want)
		if !ok || st.Ino != want.Ino || st.Size != int64(len(n)) {
			t.Errorf("lstat d/%s: %+v %v, want inode %d size %d", n, st, ok, want.Ino, len(n))
		}
	}
	for _, n := range []string{"a\x00b", "ab.md\x00", "missing", "link"} {
		if st, ok := s.lstat("d/" + n); ok {
			t.Errorf("lstat d/%q: %+v, want none", n, st)
		}
	}
}
