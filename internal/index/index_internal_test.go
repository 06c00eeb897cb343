package index

import (
	"testing"

	"github.com/procedures-go/procedures/internal/corpus"
)

// The racy-clean rule: an entry is trusted only when its stat is the same
// and its mtime is strictly older than the second of the index write.
func TestLookupRacyClean(t *testing.T) {
	const granule = 1_700_000_000
	st := corpus.FileStat{Size: 10, MtimeNs: (granule-1)*1e9 + 999_999_999, CtimeNs: 1, Ino: 2, Dev: 3, Mode: 0o100644}
	racy := st
	racy.MtimeNs = granule * 1e9
	m := string(corpus.AppendMeta(nil, corpus.FileMeta{Rec: corpus.Record{ID: "x"}}))
	ix := &Index{granule: granule,
		old: map[string]lazy{"a.md": {St: st, meta: m}, "b.md": {St: racy, meta: m}}}
	if got, ok := ix.Lookup("a.md", st); !ok || got.Rec.ID != "x" {
		t.Errorf("an older, unchanged entry was not trusted")
	}
	if _, ok := ix.Lookup("b.md", racy); ok {
		t.Errorf("an entry modified in the index write's second was trusted")
	}
	for _, change := range []func(*corpus.FileStat){
		func(s *corpus.FileStat) { s.Size++ },
		func(s *corpus.FileStat) { s.MtimeNs-- },
		func(s *corpus.FileStat) { s.CtimeNs++ },
		func(s *corpus.FileStat) { s.Ino++ },
		func(s *corpus.FileStat) { s.Dev++ },
		func(s *corpus.FileStat) { s.Mode ^= 0o4 },
	} {
		s := st
		change(&s)
		if _, ok := ix.Lookup("a.md", s); ok {
			t.Errorf("a changed stat %+v was trusted", s)
		}
	}
	if _, ok := ix.Lookup("c.md", st); ok {
		t.Errorf("a path not in the index was found")
	}
}

func TestInside(t *testing.T) {
	for _, c := range []struct {
		dir, root string
		want      bool
	}{
		{"/r/.cache/procedures", "/r", true},
		{"/r", "/r", true},
		{"/home/u/.cache/procedures", "/r", false},
		{"/rr/.cache", "/r", false},
	} {
		if got := inside(c.dir, c.root); got != c.want {
			t.Errorf("inside(%q, %q) = %v, want %v", c.dir, c.root, got, c.want)
		}
	}
}
