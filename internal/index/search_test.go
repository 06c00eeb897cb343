package index_test

import (
	"testing"

	"github.com/procedures-go/procedures/internal/index"
)

// A search after each edit patches the inverted file (the loaded postings
// renumbered, those of the files read again merged in) into exactly the
// bytes a search with no index would build from scratch.
func TestPatchedPostingsAreARebuild(t *testing.T) {
	f := newFixture(t, 11, 60)
	q := []string{"--search", "record alpha"}
	f.run(q, false)
	for i := range 25 {
		what := f.edit()
		f.run(q, false)
		patched, err := index.InvertedPart(f.searchIndexFile())
		if err != nil {
			t.Fatal(err)
		}
		cold := *f
		cold.cache = t.TempDir()
		cold.run(q, false)
		rebuilt, err := index.InvertedPart(cold.searchIndexFile())
		if err != nil {
			t.Fatal(err)
		}
		if patched != rebuilt {
			t.Fatalf("edit %d (%s): the patched inverted file (%d bytes) is not the rebuilt one (%d bytes)", i, what, len(patched), len(rebuilt))
		}
	}
}
