package index_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/cachefile/cachefiletest"
)

// On a real file system of one-second times: a record rewritten in place,
// same size, mtime put back, in the second a query read it, is seen by the
// next run, whenever that is (the writers' case is writerindex's
// TestOneSecondFileSystem).
func TestOneSecondFileSystem(t *testing.T) {
	mnt := cachefiletest.OneSecondFS(t)
	f := newFixture(t, 13, 0)
	f.root = filepath.Join(mnt, "corpus")
	for range 20 {
		f.add()
	}
	p := filepath.Join(f.root, "references/decisions/x.md")
	os.MkdirAll(filepath.Dir(p), 0o755)
	cachefiletest.StartOfSecond()
	os.WriteFile(p, []byte("---\nid: x\nkind: decision\n---\n# x\n"), 0o644)
	fi, _ := os.Stat(p)
	f.run(queries[0], false)
	b, _ := os.ReadFile(p)
	os.WriteFile(p, bytes.Replace(b, []byte("decision"), []byte("solution"), 1), 0o644)
	os.Chtimes(p, fi.ModTime(), fi.ModTime())
	if time.Since(fi.ModTime()) >= time.Second {
		t.Skip("the machine was too slow to stay within one second; nothing was proven")
	}
	time.Sleep(1100 * time.Millisecond)
	f.check("a same-size rewrite, mtime put back, in the second of the read")
}
