package cachefile

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Where FineDev says a file system moves the ctime on every change made
// after it was read, it does: a file made in a directory just stat-ed, one
// removed and another made, and a file rewritten in place (same size, mtime put back) just after its
// stat, each move the ctime, many times over in a tight loop.
func TestFineFileSystemMovesTheCtime(t *testing.T) {
	dir := t.TempDir()
	if FineDev(dir) == 0 {
		t.Skipf("%s is not on a file system FineDev trusts (ext4 on Linux 6.13 or later)", dir)
	}
	ctime := func(p string) syscall.Timespec {
		var st syscall.Stat_t
		if err := syscall.Lstat(p, &st); err != nil {
			t.Fatal(err)
		}
		return st.Ctim
	}
	f := filepath.Join(dir, "f")
	os.WriteFile(f, []byte("aaaa"), 0o644)
	past := time.Now().Add(-time.Hour)
	for i := range 500 {
		before := ctime(dir)
		os.WriteFile(filepath.Join(dir, fmt.Sprint(i)), nil, 0o644)
		if ctime(dir) == before {
			t.Fatalf("a file made in a directory just stat-ed left its ctime as it was (round %d)", i)
		}
		before = ctime(dir)
		os.Remove(filepath.Join(dir, fmt.Sprint(i)))
		os.WriteFile(filepath.Join(dir, fmt.Sprint("g", i)), nil, 0o644)
		if ctime(dir) == before {
			t.Fatalf("a file removed and one made in a directory just stat-ed left its ctime as it was (round %d)", i)
		}
		before = ctime(f)
		os.WriteFile(f, []byte(fmt.Sprintf("%04d", i)), 0o644)
		os.Chtimes(f, past, past)
		if ctime(f) == before {
			t.Fatalf("a same-size rewrite, mtime put back, just after a stat left the ctime as it was (round %d)", i)
		}
	}
}
