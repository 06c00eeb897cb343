package index

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/procedures-go/procedures/internal/corpus"
)

// The racy-clean rule: an entry is trusted only when its stat is the same
// and its mtime is strictly older than the second of the index write.
func TestLookupRacyClean(t *testing.T) {
	const granule = 1_700_000_000
	st := corpus.FileStat{Size: 10, MtimeNs: (granule-1)*1e9 + 999_999_999, CtimeNs: (granule-1)*1e9 + 5, Ino: 2, Dev: 3, Mode: 0o100644}
	racy := st
	racy.MtimeNs = granule * 1e9
	racyC := st
	racyC.MtimeNs = granule*1e9 + 1
	m := string(corpus.AppendMeta(nil, corpus.FileMeta{Rec: corpus.Record{ID: "x"}}))
	rec := func(st corpus.FileStat) string { return string(append(appendStat(nil, st), m...)) }
	ix := &Index{granule: granule, old: []lazy{
		{path: "a.md", rec: rec(st)}, {path: "b.md", rec: rec(racy)}, {path: "bc.md", rec: rec(racyC)}}}
	ix.Start([]string{"a.md", "b.md", "bc.md", "c.md"})
	if got, ok := ix.Lookup(0, st); !ok || got != m {
		t.Errorf("an older, unchanged entry was not trusted")
	}
	if _, ok := ix.Lookup(1, racy); ok {
		t.Errorf("an entry modified in the index write's second was trusted")
	}
	if _, ok := ix.Lookup(2, racyC); ok {
		t.Errorf("an entry modified after the index write's second was trusted")
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
		if _, ok := ix.Lookup(0, s); ok {
			t.Errorf("a changed stat %+v was trusted", s)
		}
	}
	if ix.Known(3) {
		t.Errorf("a path not in the index was found")
	}
	// A directory listing follows the same rule.
	ix.oldDirs = map[string]listing{"s/": {St: st, files: []string{"a.md"}}, "r/": {St: racyC}}
	ix.usedDirs = map[string]bool{}
	if _, files, ok := ix.Listing("s/", st); !ok || len(files) != 1 {
		t.Errorf("an older, unchanged listing was not trusted")
	}
	if _, _, ok := ix.Listing("r/", racyC); ok {
		t.Errorf("a listing whose directory changed in the index write's second was trusted")
	}
	s := st
	s.MtimeNs++
	if _, _, ok := ix.Listing("s/", s); ok {
		t.Errorf("a listing of a changed directory was trusted")
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

// A stored stat reads back as written, every bit of every field.
func TestStatRoundTrip(t *testing.T) {
	for _, st := range []corpus.FileStat{
		{},
		{Size: -1, MtimeNs: -1, CtimeNs: -1, Ino: ^uint64(0), Dev: ^uint64(0), Mode: ^uint32(0)},
		{Size: 1 << 62, MtimeNs: 1_796_000_000_123_456_789, CtimeNs: 1, Ino: 1 << 40, Dev: 0xfe01, Mode: 0o100644},
	} {
		b := appendStat([]byte("x"), st)
		if len(b) != 1+statLen {
			t.Fatalf("%+v: %d bytes, want %d", st, len(b)-1, statLen)
		}
		if got := statOf(string(b[1:])); got != st {
			t.Errorf("read back %+v, wrote %+v", got, st)
		}
	}
}

// An index written out in many flushes (one every few entries, and one
// inside the directories) is the same bytes as one written in a single
// flush, and decodes back to exactly its entries and listings: its
// checksum covers every flushed piece, the header line excluded.
func TestEncodeFlushes(t *testing.T) {
	entries := map[string]entry{}
	for i := range 3000 {
		p := fmt.Sprintf("store/%06d.md", i)
		entries[p] = entry{St: corpus.FileStat{Size: int64(i), MtimeNs: int64(i) * 7, Ino: uint64(i)}, meta: corpus.AppendMeta(nil, corpus.FileMeta{Rec: corpus.Record{ID: p}})}
	}
	dirs := map[string]listing{}
	for i := range 40 {
		dirs[fmt.Sprintf("store/d%02d/", i)] = listing{St: corpus.FileStat{Ino: uint64(i)}, files: []string{"a.md", "b.md"}}
	}
	defer func(n int) { flushAt = n }(flushAt)
	flushAt = 1 << 30
	whole := encode("/root", []string{"store"}, entries, dirs)
	for _, n := range []int{1, 100, 4096} {
		flushAt = n
		var w countingWriter
		b := encode("/root", []string{"store"}, entries, dirs)
		encodeTo(&w, "/root", nil, 0, nil, dirs)
		if !bytes.Equal(b, whole) {
			t.Fatalf("flushing at %d: %d bytes, not the %d of one flush", n, len(b), len(whole))
		}
		if n == 1 && w.writes < len(dirs) {
			t.Fatalf("flushing at 1: %d writes for %d directories", w.writes, len(dirs))
		}
	}
	header := magic + " " + itoa(Version) + "\n"
	x, err := decode(whole[len(header):])
	if err != nil {
		t.Fatal(err)
	}
	if len(x.entries) != len(entries) || x.root != "/root" || len(x.dirs) != len(dirs) || x.dirs["store/d07/"].St.Ino != 7 {
		t.Fatalf("decoded %d entries of %d, root %q, %d dirs", len(x.entries), len(entries), x.root, len(x.dirs))
	}
	for _, e := range x.entries {
		st, meta, ok := e.decode()
		if want := entries[e.path]; !ok || st != want.St || meta != string(want.meta) {
			t.Fatalf("%s: %+v %q, want %+v %q", e.path, st, meta, want.St, want.meta)
		}
	}
}

type countingWriter struct{ writes int }

func (w *countingWriter) Write(b []byte) (int, error) { w.writes++; return len(b), nil }
