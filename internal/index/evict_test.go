package index

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// countIndexes is how many index files dir holds.
func countIndexes(t *testing.T, dir string) int {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".idx") || strings.HasSuffix(e.Name(), ".wdx") {
			n++
		}
	}
	return n
}

// saveFor writes an index file of root into dir as a save does (the query
// index, or the writers'), then sweeps as a save does.
func saveFor(t *testing.T, dir, root string, writers bool) string {
	t.Helper()
	name, body := fmt.Sprintf("%x.idx", root), encode(root, nil, 0, nil, nil)
	if writers {
		name, body = fmt.Sprintf("%x.wdx", root), encodeWriters(root, 0, nil)
	}
	p := filepath.Join(dir, name)
	_, err := os.Lstat(p)
	if err := writeAtomic(dir, p, func(w io.Writer) error { _, err := w.Write(body); return err }); err != nil {
		t.Fatal(err)
	}
	evict(dir, p, err != nil)
	return p
}

// Ten thousand distinct roots leave at most maxFiles index files.
func TestCacheIsBoundedAcrossManyRoots(t *testing.T) {
	dir := t.TempDir()
	for i := range 10_000 {
		saveFor(t, dir, fmt.Sprintf("/no/such/root/%d", i), i%2 == 1)
	}
	if n := countIndexes(t, dir); n > maxFiles {
		t.Fatalf("10,000 roots left %d index files, over the cap of %d", n, maxFiles)
	}
}

// The hourly sweep removes the index of a root that is gone and one not
// written for maxAge; it keeps the live root's, the file just saved, and
// files that are not index files.
func TestCacheSweepRemovesGoneAndOld(t *testing.T) {
	defer func(c func() time.Time) { clock = c }(clock)
	dir := t.TempDir()
	live, gone, old := t.TempDir(), t.TempDir(), t.TempDir()
	other := filepath.Join(dir, "transcripts")
	os.WriteFile(other, []byte("not an index"), 0o600)
	pLive := saveFor(t, dir, live, false)
	pGone := saveFor(t, dir, gone, true)
	pOld := saveFor(t, dir, old, false)
	long := time.Now().Add(-maxAge - time.Hour)
	os.Chtimes(pOld, long, long)
	os.Remove(gone)
	saveFor(t, dir, live, true) // within the hour: no sweep
	if _, err := os.Lstat(pGone); err != nil {
		t.Fatal("swept within the hour of the last sweep")
	}
	clock = func() time.Time { return time.Now().Add(evictEvery + time.Minute) }
	pNew := saveFor(t, dir, filepath.Join(gone, "x"), false) // its root is gone too, but it was just saved
	for p, want := range map[string]bool{pLive: true, pGone: false, pOld: false, pNew: true, other: true} {
		if _, err := os.Lstat(p); (err == nil) != want {
			t.Errorf("%s: present %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
}
