package corpus

import (
	"bytes"
	"iter"
	"strings"
	"unsafe"

	"github.com/procedures-go/procedures/internal/search"
)

// The search index's entries are a [FileMeta] encoding ([AppendMeta])
// followed by the record's term statistics ([search.AppendStats]): every
// term of its four fields with its frequencies, so that a warm search reads
// no record whose stat is unchanged. A search keeps its own index file,
// apart from the keyword queries' one (internal/index), so that those
// load no term statistics.

// SearchCached runs q like [Corpus.Search], with the same results and
// errors, but takes each file's metadata and term statistics from mc when
// the file's stat is what mc stored (see [Corpus.QueryCached] for the
// rules), and reads, analyses and hands to mc.Put only the other files. A
// nil mc, or a platform without the stat fields, is Search.
func (c *Corpus) SearchCached(q SearchQuery, mc MetaCache) ([]Record, error) {
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
	sorted := m.Sorted()
	docs := make([]*search.DocStats, n)
	recs := make([]*Record, n)
	stats := make([]string, n) // each searched record's encoded statistics
	var first firstErr
	inParallel(n, func(indexes iter.Seq[int]) {
		var v recView
		var crlfBuf, enc []byte
		buf := make([]byte, 0, 64<<10)
		at := map[string]int{}
		wa := an.Clone()
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
				enc = appendSearchEntry(enc, e.path, content, capped, &v, wa, at)
				b := enc[from:len(enc):len(enc)]
				meta = unsafe.String(unsafe.SliceData(b), len(b))
				if statOK {
					mc.Put(i, e.path, st, b)
				}
			}
			fm, rest := decodeSearchEntry(e.path, meta, q.Filter)
			if fm == nil {
				continue
			}
			d := exactHits(rest, sorted)
			if d == nil {
				continue
			}
			docs[i], stats[i], recs[i] = d, rest, &fm.Rec
		}
	})
	if first.err != nil {
		return nil, &ScanError{Path: c.entries[first.i].path, Err: first.err}
	}
	if m.HasFallback(docs) {
		closeHits(m, an, docs, stats)
	}
	return searchResult(m.Rank(docs), recs, q.Filter.Limit), nil
}

// appendSearchEntry appends the search index entry of one file's
// (CRLF-normalised) head: its FileMeta encoding, then, for a record that
// is neither empty nor skipped, its term statistics.
func appendSearchEntry(b []byte, path string, content []byte, capped bool, v *recView, a *search.Analyzer, at map[string]int) []byte {
	if len(content) > 0 {
		v.parse(content)
	}
	from := len(b)
	b = appendMetaOf(b, content, capped, v)
	if b[from]&3 != 0 { // empty or skipped
		return b
	}
	var f search.Fields
	searchFields(&f, path, v)
	d := a.Stats(&f, at)
	return search.AppendStats(b, &d)
}

// decodeSearchEntry decodes a search index entry for a search filtered by
// q: nil when the record is not searched (empty, skipped, or failing q's
// structural filters), else its FileMeta and its encoded statistics.
func decodeSearchEntry(path, meta string, q Query) (*FileMeta, string) {
	fm := decodeFor(path, meta, q)
	if fm.Empty || fm.Skip || !fm.Rec.structural(q) {
		return nil, ""
	}
	d := NewDecoder(meta)
	d.Byte()
	for range 5 {
		d.Str()
	}
	d.Strs()
	d.Strs()
	if !d.OK() {
		return nil, ""
	}
	return &fm, d.Rest()
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

// closeHits adds to each searched record the terms it holds that are close
// spellings of a query term (the fallback for a term no record holds).
func closeHits(m *search.Matcher, an *search.Analyzer, docs []*search.DocStats, stats []string) {
	inParallel(len(docs), func(indexes iter.Seq[int]) {
		w := m.NewWorker(an.Clone())
		for i := range indexes {
			d := docs[i]
			if d == nil {
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
