package index_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/index"
)

// A record rewritten in place, same size, in the second a query read it,
// on a file system of one-second times (its stat then unchanged), is read
// again by the next query however late the index was saved: the stat was
// taken in the second the run observed from, so it was stored smudged.
func TestRacyRewriteInTheSecondOfTheRead(t *testing.T) {
	f := newFixture(t, 11, 20)
	stamp := time.Unix(1_800_000_000, 0)
	restore := index.OneSecond(stamp, stamp.Add(300*time.Millisecond))
	defer restore()
	f.run(queries[0], false) // reads every record, in the second of their stamp
	p := filepath.Join(f.root, "references/decisions/x.md")
	os.WriteFile(p, []byte("---\nid: x\nkind: decision\n---\n# x\n"), 0o644)
	f.run(queries[0], false)
	b, _ := os.ReadFile(p)
	os.WriteFile(p, bytes.Replace(b, []byte("decision"), []byte("solution"), 1), 0o644)
	index.OneSecond(stamp, stamp.Add(time.Hour)) // the index saved, and read, an hour later
	f.check("a same-size rewrite in the second of the read")
	f.check("again")
}
