package corpus

import (
	"bytes"
	"iter"
	"strings"
	"unsafe"

	"github.com/procedures-go/procedures/internal/search"
)

// A search index's entry is a [FileMeta] encoding ([AppendMeta]) followed,
// for a record that is neither empty nor skipped, by its field lengths
// ([search.AppendLens]); the records' terms are kept inverted, apart
// ([search.OpenInverted]). A warm search reads each entry, then only the
// postings of its query's terms: what it holds is a few words per record,
// however many terms the records have. A search keeps its own index file,
// apart from the keyword queries' one (internal/index), so that those load
// no term statistics.

// A SearchCache is a [MetaCache] for a free-text search: its entries are
// encoded as above, and it keeps the records' terms inverted.
type SearchCache interface {
	MetaCache
	// PutTerms stores the term statistics ([search.AppendStats]) of the
	// i-th path, whose entry was just put; terms stays unchanged after.
	PutTerms(i int, terms []byte)
	// Inverted is the inverted file of the loaded entries (nil: none), in
	// which the i-th path's loaded entry is numbered Entry(i) (-1: none).
	Inverted() *search.Inverted
	Entry(i int) int
}

// SearchCached runs q like [Corpus.Search], with the same results and
// errors, but takes each file's metadata and field lengths from mc when the
// file's stat is what mc stored (see [Corpus.QueryCached] for the rules),
// and the frequencies of the query's terms in those files from mc's
// postings; it reads, analyses and hands to mc.Put and mc.PutTerms only the
// other files. A nil mc, or a platform without the stat fields, is Search.
// It fails with [search.ErrCorrupt] when a part of mc's inverted file it
// reads is corrupt: the caller runs the search again without it.
func (c *Corpus) SearchCached(q SearchQuery, mc SearchCache) ([]Record, error) {
	if mc == nil || !haveStat {
		return c.Search(q)
	}
	an := search.NewAnalyzer(q.Abbreviations)
	m := search.NewMatcher(an, q.Text)
	if len(m.Terms()) == 0 {
		return nil, &NoTokenError{Keyword: q.Text}
	}
	n := len(c.entries)
	if n == 0 {
		return nil, nil
	}
	mc.Start(c.Paths())
	s := &cachedSearch{c: c, mc: mc, q: q.Filter, an: an, m: m, sorted: m.Sorted(),
		docs: make([]*search.DocStats, n), metas: make([]string, n), fresh: make([]string, n)}
	if err := s.entries(); err != nil {
		return nil, err
	}
	if err := s.postings(mc.Inverted()); err != nil {
		return nil, err
	}
	ranked := m.Rank(s.docs)
	if limit := q.Filter.Limit; limit > 0 && len(ranked) > limit {
		ranked = ranked[:limit]
	}
	out := make([]Record, len(ranked))
	for k, r := range ranked {
		out[k] = decodeFor(c.entries[r.Doc].path, s.metas[r.Doc], q.Filter).Rec
		out[k].Score = r.Score
	}
	return out, nil
}

// cachedSearch is one [Corpus.SearchCached] run: by corpus position, each
// searched record's statistics so far, its FileMeta encoding, and, for a
// record read again, its encoded term statistics.
type cachedSearch struct {
	c      *Corpus
	mc     SearchCache
	q      Query
	an     *search.Analyzer
	m      *search.Matcher
	sorted []string
	docs   []*search.DocStats
	metas  []string
	fresh  []string
}

// entries takes every file's entry from the cache, or reads the file
// again, and fills docs with the searched records' field lengths (and, for
// those read again, their hits).
func (s *cachedSearch) entries() error {
	c, mc := s.c, s.mc
	var first firstErr
	inParallel(len(c.entries), func(indexes iter.Seq[int]) {
		var v recView
		var crlfBuf, enc []byte
		buf := make([]byte, 0, 64<<10)
		at := map[string]int{}
		wa := s.an.Clone()
		sr := newStatter(c.Root)
		defer sr.close()
		for i := range indexes {
			e := c.entries[i]
			meta, ok := "", false
			var st FileStat
			statOK, known := false, mc.Known(i)
			if known {
				if st, statOK = sr.lstat(e.path); statOK {
					meta, ok = mc.Lookup(i, st)
				}
			}
			stats := ""
			if !ok {
				var err error
				var capped bool
				if known {
					buf, capped, err = sr.readHead(e.path, buf[:0], haveSearchHead)
				} else {
					buf, capped, st, err = sr.readHeadFileStat(e.path, buf[:0], haveSearchHead)
					statOK = err == nil
				}
				if err != nil {
					first.set(i, err)
					continue
				}
				content := buf
				if bytes.Contains(content, crlf) {
					crlfBuf = normalizeCRLF(crlfBuf[:0], content)
					content = crlfBuf
				}
				if cap(enc)-len(enc) < 64<<10 {
					enc = make([]byte, 0, 1<<20)
				}
				from := len(enc)
				var mid int
				enc, mid = appendSearchEntry(enc, e.path, content, capped, &v, wa, at)
				entry, terms := enc[from:mid:mid], enc[mid:len(enc):len(enc)]
				meta = unsafe.String(unsafe.SliceData(entry), len(entry))
				stats = unsafe.String(unsafe.SliceData(terms), len(terms))
				if statOK {
					mc.Put(i, e.path, st, entry)
					if len(terms) > 0 {
						mc.PutTerms(i, terms)
					}
				}
			}
			fm, lens, ok := searchedEntry(e.path, meta, s.q)
			if !ok {
				continue
			}
			s.metas[i] = fm
			if stats == "" { // a cached entry: its hits come from the postings
				s.docs[i] = &search.DocStats{Len: lens}
				continue
			}
			s.docs[i], s.fresh[i] = exactHits(stats, s.sorted), stats
		}
	})
	if first.err != nil {
		return &ScanError{Path: c.entries[first.i].path, Err: first.err}
	}
	return nil
}

// postings adds to the records whose entry the cache held the hits of the
// query's terms, from inv's postings, then, when a query term no searched
// record holds calls for it, the close spellings every searched record
// holds.
func (s *cachedSearch) postings(inv *search.Inverted) error {
	var at []int32 // by loaded entry: the first corpus position holding it
	if inv != nil {
		at = make([]int32, inv.Entries())
		for j := range at {
			at[j] = -1
		}
		for i := range s.docs {
			if j := s.mc.Entry(i); j >= 0 && j < len(at) && at[j] < 0 {
				at[j] = int32(i)
			}
		}
	}
	// add gives term t's posting p to each cached, searched record of p's
	// entry (the corpus may list a path twice).
	add := func(t string, p search.Posting) {
		if p.Entry >= len(at) {
			return
		}
		for i := int(at[p.Entry]); i >= 0 && i < len(s.docs) && s.mc.Entry(i) == p.Entry; i++ {
			if d := s.docs[i]; d != nil && s.fresh[i] == "" {
				d.Hits = append(d.Hits, search.Hit{Term: t, TF: p.TF})
			}
		}
	}
	if inv != nil {
		for _, t := range s.sorted {
			pl, ok, err := inv.Lookup(t)
			if err == nil && ok {
				err = pl.Each(func(p search.Posting) { add(t, p) })
			}
			if err != nil {
				return err
			}
		}
	}
	if !s.m.HasFallback(s.docs) {
		return nil
	}
	closeHits(s.m, s.an, s.docs, s.fresh)
	if inv == nil {
		return nil
	}
	var bad error
	err := inv.Each(func(t string, pl search.PostingList) bool {
		if !s.m.IsClose(t) {
			return true
		}
		t = strings.Clone(t)
		bad = pl.Each(func(p search.Posting) { add(t, p) })
		return bad == nil
	})
	if err != nil {
		return err
	}
	return bad
}

// appendSearchEntry appends the search index entry of one file's
// (CRLF-normalised) head, its FileMeta encoding and, for a record that is
// neither empty nor skipped, its field lengths, and then that record's
// term statistics, which start at mid.
func appendSearchEntry(b []byte, path string, content []byte, capped bool, v *recView, a *search.Analyzer, at map[string]int) (_ []byte, mid int) {
	if len(content) > 0 {
		v.parse(content)
	}
	from := len(b)
	b = appendMetaOf(b, content, capped, v)
	if b[from]&3 != 0 { // empty or skipped
		return b, len(b)
	}
	var f search.Fields
	searchFields(&f, path, v)
	d := a.Stats(&f, at)
	b = search.AppendLens(b, &d)
	mid = len(b)
	return search.AppendStats(b, &d), mid
}

// searchedEntry splits a search index entry for a search filtered by q:
// ok is false when the record is not searched (empty, skipped, failing q's
// structural filters, or a malformed entry), else fm is its FileMeta
// encoding and lens its field lengths.
func searchedEntry(path, meta string, q Query) (fm string, lens [search.NumFields]int32, ok bool) {
	if meta == "" || meta[0]&3 != 0 {
		return "", lens, false
	}
	if q.Kind != "" || q.ID != "" || q.Project != "" || q.LinksTo != "" {
		if m := decodeFor(path, meta, q); m.Empty || m.Skip || !m.Rec.structural(q) {
			return "", lens, false
		}
	}
	d := NewDecoder(meta)
	d.Byte()
	for range 5 {
		d.Str()
	}
	for range 2 { // keywords, links
		for k := d.Uvarint(); k > 0 && d.OK(); k-- {
			d.Str()
		}
	}
	if !d.OK() {
		return "", lens, false
	}
	rest := d.Rest()
	if lens, ok = search.ReadLens(rest); !ok {
		return "", lens, false
	}
	return meta[:len(meta)-len(rest)], lens, true
}

// exactHits reads a record's statistics for the query's sorted terms: its
// field lengths and the terms it holds, found by walking both sorted lists
// together. nil when the encoding is malformed.
func exactHits(enc string, sorted []string) *search.DocStats {
	r, lens, ok := search.ReadStats(enc)
	if !ok {
		return nil
	}
	d := &search.DocStats{Len: lens}
	k := 0
	for k < len(sorted) {
		t, tf, ok := r.Next()
		if !ok {
			break
		}
		for k < len(sorted) && sorted[k] < t {
			k++
		}
		if k < len(sorted) && sorted[k] == t {
			d.Hits = append(d.Hits, search.Hit{Term: sorted[k], TF: tf})
			k++
		}
	}
	if !r.OK() {
		return nil
	}
	return d
}

// closeHits adds to each searched record read again (its encoded
// statistics in stats) the terms it holds that are close spellings of a
// query term (the fallback for a term no record holds).
func closeHits(m *search.Matcher, an *search.Analyzer, docs []*search.DocStats, stats []string) {
	inParallel(len(docs), func(indexes iter.Seq[int]) {
		w := m.NewWorker(an.Clone())
		for i := range indexes {
			d := docs[i]
			if d == nil || stats[i] == "" {
				continue
			}
			r, _, ok := search.ReadStats(stats[i])
			if !ok {
				continue
			}
			for {
				t, tf, ok := r.Next()
				if !ok {
					break
				}
				if w.Close(t) {
					d.Hits = append(d.Hits, search.Hit{Term: strings.Clone(t), TF: tf})
				}
			}
		}
	})
}
