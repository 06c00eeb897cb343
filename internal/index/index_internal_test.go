package index

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/procedures-go/procedures/internal/cachefile"
	"github.com/procedures-go/procedures/internal/corpus"
)

// The racy-clean rule: a stat is stored as taken only when its file
// changed strictly before the moment observed, at the granule its times
// show; a racy one is stored smudged, and a loaded entry is trusted only
// when its stat is the present one.
func TestRacyCleanAgainstTheObservedMoment(t *testing.T) {
	const sec = int64(1e9)
	obs := 1_700_000_000*sec + 400_000_000 // observed at .4 of a second
	ns := func(s, frac int64) corpus.FileStat {
		return corpus.FileStat{Size: 10, MtimeNs: s*sec + frac, CtimeNs: s*sec + frac, Ino: 2, Dev: 3, Mode: 0o100644}
	}
	for _, c := range []struct {
		name string
		st   corpus.FileStat
		racy bool
	}{
		{"nanoseconds, well before", ns(1_699_999_999, 5), false},
		{"nanoseconds, just beyond the tick's slack", corpus.FileStat{MtimeNs: obs - int64(cachefile.Slack) - 1, CtimeNs: obs - int64(cachefile.Slack) - 1}, false},
		{"nanoseconds, within one tick before the moment", corpus.FileStat{MtimeNs: obs - 1_000_000, CtimeNs: obs - 1_000_000}, true},
		{"nanoseconds, after the moment", corpus.FileStat{MtimeNs: obs + 1, CtimeNs: obs + 1}, true},
		{"whole seconds, the moment's second", ns(1_700_000_000, 0), true},
		{"whole seconds, the second before", ns(1_699_999_999, 0), false},
		{"mtime put back, ctime of the moment's second", corpus.FileStat{MtimeNs: 1_600_000_000 * sec, CtimeNs: obs - 1000}, true},
		{"mtime in the future", corpus.FileStat{MtimeNs: obs + 3600*sec, CtimeNs: 1_600_000_000 * sec}, true},
	} {
		if got := (cachefile.Judge{Observed: obs}).Racy(c.st); got != c.racy {
			t.Errorf("%s: racy = %v, want %v", c.name, got, c.racy)
		}
		if got := (cachefile.Judge{Observed: obs}).Stored(c.st) == c.st; got == c.racy {
			t.Errorf("%s: stored as taken = %v, want %v", c.name, got, !c.racy)
		}
	}

	// Whole seconds are judged at two: observed in an odd second, the even
	// one before it is FAT's same granule.
	if odd := obs + sec; !(cachefile.Judge{Observed: odd}).Racy(ns(1_700_000_000, 0)) || (cachefile.Judge{Observed: odd}).Racy(ns(1_699_999_999, 0)) {
		t.Errorf("observed in an odd second: the even second before must be racy, the one before that not")
	}

	// On the device whose later changes always move the ctime, a stat of
	// sub-second times is never racy; whole seconds still are.
	fine := cachefile.Judge{Observed: obs, Fine: 3}
	if fine.Racy(corpus.FileStat{Dev: 3, MtimeNs: obs - 1000, CtimeNs: obs - 1000}) ||
		!fine.Racy(corpus.FileStat{Dev: 4, MtimeNs: obs - 1000, CtimeNs: obs - 1000}) ||
		!fine.Racy(corpus.FileStat{Dev: 3, MtimeNs: 1_700_000_000 * sec, CtimeNs: 1_700_000_000 * sec}) {
		t.Errorf("the fine device's rule: sub-second times there trusted, elsewhere and whole seconds not")
	}

	st := ns(1_699_999_990, 7)
	m := string(corpus.AppendMeta(nil, corpus.FileMeta{Rec: corpus.Record{ID: "x"}}))
	rec := func(st corpus.FileStat) string { return string(append(appendStat(nil, st), m...)) }
	ix := &Index{judge: cachefile.Judge{Observed: obs}, old: []lazy{
		{path: "a.md", rec: rec(st)}, {path: "b.md", rec: rec(cachefile.Smudged(st))}}}
	ix.Start([]string{"a.md", "b.md", "c.md"})
	if got, ok := ix.Lookup(0, st); !ok || got != m {
		t.Errorf("an unchanged entry was not trusted")
	}
	if _, ok := ix.Lookup(1, st); ok {
		t.Errorf("a smudged entry was trusted")
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
	if ix.Known(2) {
		t.Errorf("a path not in the index was found")
	}
	// A directory listing follows the same rule, and one listed now is
	// stored smudged when racy.
	ix.oldDirs = map[string]listing{"s/": {St: st, files: []string{"a.md"}}, "r/": {St: cachefile.Smudged(st)}}
	ix.usedDirs, ix.newDirs = map[string]bool{}, map[string]listing{}
	if _, files, ok := ix.Listing("s/", st); !ok || len(files) != 1 {
		t.Errorf("an unchanged listing was not trusted")
	}
	if _, _, ok := ix.Listing("r/", st); ok {
		t.Errorf("a smudged listing was trusted")
	}
	now := corpus.FileStat{MtimeNs: obs - 1000, CtimeNs: obs - 1000}
	ix.PutListing("n/", now, nil, nil)
	ix.PutListing("o/", st, nil, nil)
	if ix.newDirs["n/"].St == now || ix.newDirs["o/"].St != st {
		t.Errorf("listings stored as %+v and %+v: want the racy one smudged, the older one as taken", ix.newDirs["n/"].St, ix.newDirs["o/"].St)
	}
	s := st
	s.MtimeNs++
	if _, _, ok := ix.Listing("s/", s); ok {
		t.Errorf("a listing of a changed directory was trusted")
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
	whole := encode("/root", []string{"store"}, 0, entries, dirs)
	for _, n := range []int{1, 100, 4096} {
		flushAt = n
		var w countingWriter
		b := encode("/root", []string{"store"}, 0, entries, dirs)
		encodeTo(&w, "/root", nil, 0, 0, nil, dirs)
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
