package cachefile

import (
	"encoding/binary"
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
	name, body := fmt.Sprintf("%x.idx", root), queryHead(root)
	if writers {
		name, body = fmt.Sprintf("%x.wdx", root), writersHead(root)
	}
	p := filepath.Join(dir, name)
	_, err := os.Lstat(p)
	if err := WriteAtomic(dir, p, func(w io.Writer) error { _, err := w.Write(body); return err }); err != nil {
		t.Fatal(err)
	}
	Evict(dir, p, err != nil)
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

// queryHead is how a query index file starts: its header line, then the
// root as a varint length and its bytes (the index's tests check that
// their files start so: see RootOf).
func queryHead(root string) []byte {
	b := []byte(QueryMagic + " 6\n")
	return append(binary.AppendUvarint(b, uint64(len(root))), root...)
}

// writersHead is how a writers' index file starts: its header line, then
// the root as a 32-bit little-endian length and its bytes.
func writersHead(root string) []byte {
	b := []byte(WritersMagic + " 3\n")
	return append(binary.LittleEndian.AppendUint32(b, uint32(len(root))), root...)
}

// RootOf reads the root the first bytes of either kind of index file name.
func TestRootOf(t *testing.T) {
	for _, b := range [][]byte{queryHead("/r/q"), writersHead("/r/q")} {
		if root, ok := RootOf(b); !ok || root != "/r/q" {
			t.Errorf("%q: root %q %v", b, root, ok)
		}
	}
	if _, ok := RootOf([]byte("other 1\nxx")); ok {
		t.Error("a file of another kind names a root")
	}
}
