package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// listEntries lists what os.ReadDir lists, with the same types, also when
// its buffer fills many times over (each fill's names must survive the
// next fill).
func TestListEntries(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for i := range 1500 {
		n := fmt.Sprintf("%s%d.md", strings.Repeat("n", i%40), i)
		os.WriteFile(filepath.Join(dir, n), nil, 0o644)
	}
	for _, d := range []string{"sub", "other"} {
		os.Mkdir(filepath.Join(dir, d), 0o755)
	}
	os.Symlink("sub", filepath.Join(dir, "link"))
	syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		want = append(want, fmt.Sprintf("%s dir=%v reg=%v", e.Name(), e.Type().IsDir(), e.Type().IsRegular()))
	}
	defer func(n int) { listBufMax = n }(listBufMax)
	for _, max := range []int{listBufMax, 4096 + 300} {
		listBufMax = max
		f, err := os.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		got, err := listEntries(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range got {
			names = append(names, fmt.Sprintf("%s dir=%v reg=%v", e.name, e.dir, e.reg))
		}
		slices.Sort(names)
		if !slices.Equal(names, want) {
			t.Fatalf("buffer %d: %d entries, want %d; first difference at %d", max, len(names), len(want), diffAt(names, want))
		}
	}
}

func diffAt(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// The statter reads a file relative to its directory through its reused
// name buffer: the file named exactly (not one named by a prefix), with
// the stat of what it read, never a symlink's target, never a name holding
// a NUL byte.
func TestStatterReadHead(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "d"), 0o755)
	for _, n := range []string{"a", "ab.md", "a-much-longer-name.md"} {
		os.WriteFile(filepath.Join(root, "d", n), []byte("body of "+n), 0o644)
	}
	os.Symlink("a", filepath.Join(root, "d", "link"))
	s := newStatter(root)
	defer s.close()
	done := func([]byte) bool { return false }
	for _, n := range []string{"a-much-longer-name.md", "a", "ab.md", "a"} {
		b, capped, st, err := s.readHeadFileStat("d/"+n, nil, done)
		var want syscall.Stat_t
		syscall.Lstat(filepath.Join(root, "d", n), &want)
		if err != nil || capped || string(b) != "body of "+n || st.Ino != want.Ino || st.Size != want.Size {
			t.Errorf("read d/%s: %q %v %+v %v, want %q inode %d", n, b, capped, st, err, "body of "+n, want.Ino)
		}
		if b, _, err := s.readHead("d/"+n, nil, done); err != nil || string(b) != "body of "+n {
			t.Errorf("readHead d/%s: %q %v", n, b, err)
		}
	}
	for _, n := range []string{"a\x00b", "ab.md\x00", "missing", "link"} {
		if b, _, _, err := s.readHeadFileStat("d/"+n, nil, done); err == nil {
			t.Errorf("read d/%q: %q, want an error", n, b)
		}
	}
}
