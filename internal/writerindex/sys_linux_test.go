package writerindex

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// listDir returns every entry, its buffer filled call after call and
// replaced when full: with a small buffer, a directory of 3000 entries
// takes many getdents calls and several buffers.
func TestListDir(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for i := range 3000 {
		name := fmt.Sprintf("record-with-a-longer-name-%04d.md", i)
		if i%500 == 0 {
			name = fmt.Sprintf("sub-%d", i)
			os.Mkdir(filepath.Join(dir, name), 0o755)
		} else {
			os.WriteFile(filepath.Join(dir, name), nil, 0o644)
		}
		want = append(want, name)
	}
	for _, max := range []int64{maxListBuf, 8 << 10} {
		saved := maxListBuf
		maxListBuf = max
		ents, st, err := listDir(dir, false)
		maxListBuf = saved
		if err != nil {
			t.Fatal(err)
		}
		if st.Ino == 0 {
			t.Error("no stat")
		}
		var got []string
		for _, e := range ents {
			if e.dir != (string(e.name[:4]) == "sub-") || e.reg == e.dir {
				t.Errorf("%s: dir %v reg %v", e.name, e.dir, e.reg)
			}
			got = append(got, string(e.name))
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("buffer %d: %d entries listed, want %d", max, len(got), len(want))
		}
	}
}

// The writers' index is read through a mapping of its file, which Close
// releases: a process that writes many records (the in-process tests, a
// Go tool) does not accumulate mappings.
func TestWritersCloseUnmaps(t *testing.T) {
	root, opts, dec := writersFixture(t)
	os.WriteFile(filepath.Join(dec, "a.md"), []byte("---\nid: a\nkind: decision\n---\n# a\n"), 0o644)
	Open(root, opts).Close() // built and written
	mapped := func(path string) int {
		b, err := os.ReadFile("/proc/self/maps")
		if err != nil {
			t.Skip(err)
		}
		return strings.Count(string(b), path)
	}
	w := Open(root, opts)
	if w == nil || w.unmap == nil {
		t.Fatal("the index was not loaded")
	}
	path := w.path
	if mapped(path) != 1 {
		t.Fatalf("the loaded index is mapped %d times, want once", mapped(path))
	}
	if m, _ := w.Resolve([]string{"a"}); !m.Has("a") {
		t.Fatal("the mapped index does not resolve its record")
	}
	w.Close()
	if n := mapped(path); n != 0 {
		t.Fatalf("after Close the index is still mapped (%d)", n)
	}
}
