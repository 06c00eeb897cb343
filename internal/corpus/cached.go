package corpus

import (
	"bytes"
	"iter"
	"sync"
	"unsafe"
)

// FileMeta is everything a query needs of one corpus file, so that a file
// whose stat has not changed need not be read again (see [MetaCache]).
type FileMeta struct {
	Empty  bool     // the file has no bytes: never part of the narrowed set
	Skip   bool     // frontmatter not closed within MaxFrontmatter: skipped
	Rec    Record   // the record's fields (Score 0); unset when Empty or Skip
	Tokens []string // distinct keyword tokens, in keyword-list order
}

// FileStat is the identity of one version of a file: when any field
// differs the file is read again.
type FileStat struct {
	Size, MtimeNs, CtimeNs int64
	Ino, Dev               uint64
	Mode                   uint32
}

// A MetaCache remembers [FileMeta], encoded (see [AppendMeta]), by corpus
// path and [FileStat]. Its methods are called from several goroutines at
// once, except Start.
type MetaCache interface {
	// Start is called once, before the other methods, with the corpus's
	// [Corpus.Paths] (byte order, duplicates kept); i in the other methods
	// is a position in it.
	Start(paths []string)
	// Lookup returns the encoded metadata stored for the i-th path when it
	// was stored with exactly st and may be trusted.
	Lookup(i int, st FileStat) (meta string, ok bool)
	// Known reports whether the i-th path has an entry at all (trusted or
	// not); a path without one is read without a separate stat.
	Known(i int) bool
	// Put stores what was read of the i-th path, whose stat before the
	// read was st: its FileMeta encoded (see [AppendMeta]; decode it with
	// [DecodeMeta]). meta stays valid and unchanged after the query; Put
	// must not change it. Each i is put at most once.
	Put(i int, path string, st FileStat, meta []byte)
}

// QueryCached runs q like [Corpus.Query], with the same results and
// errors, but takes each file's metadata from mc when the file's stat
// (fstatat relative to its directory, not following a final symlink, taken
// before any read) is what mc stored, and reads and parses
// only the other files, handing what it read to mc.Put. A nil mc, or a
// platform without the stat fields, reads every file.
//
// A file it reads is encoded for mc straight from its parsed head, and the
// query reads the file's fields from that encoding, as from a trusted
// entry: its [Record] is built only when it passes q's structural filters
// (as [Corpus.Query] does), so that a cold query costs little more than
// one without mc.
func (c *Corpus) QueryCached(q Query, mc MetaCache) ([]Record, error) {
	if mc == nil || !haveStat {
		return c.Query(q)
	}
	if len(c.entries) == 0 {
		return nil, nil
	}
	n := len(c.entries)
	mc.Start(c.Paths())
	// Each file's metadata, nil when the file is never part of the narrowed
	// set (empty, skipped, or failing q's structural filters); the others
	// are kept in per-goroutine slabs, so that a file filtered out costs
	// no allocation.
	metas := make([]*FileMeta, n)
	var first firstErr
	inParallel(n, func(indexes iter.Seq[int]) {
		var v recView
		var crlfBuf []byte
		buf := make([]byte, 0, 16<<10)
		// The files' encodings (handed to mc.Put, and read by the query):
		// appended to one buffer, which is never written below its length
		// (a slice handed out stays as it was, also when append moves the
		// buffer).
		var enc []byte
		var slab []FileMeta
		keep := func(i int, m *FileMeta) {
			if m.Empty || m.Skip {
				return
			}
			if len(slab) == cap(slab) {
				slab = make([]FileMeta, 0, 64)
			}
			slab = append(slab, *m)
			metas[i] = &slab[len(slab)-1]
		}
		sr := newStatter(c.Root)
		defer sr.close()
		for i := range indexes {
			e := c.entries[i]
			var st FileStat
			statOK := false
			known := mc.Known(i)
			if known {
				st, statOK = sr.lstat(e.path)
				if statOK {
					if m, ok := mc.Lookup(i, st); ok {
						fm := decodeFor(e.path, m, q)
						keep(i, &fm)
						continue
					}
				}
			}
			var err error
			var capped bool
			if known {
				buf, capped, err = sr.readHead(e.path, buf[:0], haveHead)
			} else {
				// The stat of the descriptor read, taken before the read.
				buf, capped, st, err = sr.readHeadFileStat(e.path, buf[:0], haveHead)
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
			// The file's entry is encoded from its parsed head, and the query
			// takes what it needs of the file from that encoding, as it does
			// from a trusted entry (decodeFor): the head's fields are
			// extracted once.
			if len(content) > 0 {
				v.parse(content)
			}
			if cap(enc)-len(enc) < 4<<10 {
				enc = make([]byte, 0, 256<<10)
			}
			at := len(enc)
			enc = appendMetaOf(enc, content, capped, &v)
			meta := enc[at:len(enc):len(enc)]
			fm := decodeFor(e.path, unsafe.String(unsafe.SliceData(meta), len(meta)), q)
			keep(i, &fm)
			if statOK {
				mc.Put(i, e.path, st, meta)
			}
		}
	})
	if first.err != nil {
		return nil, &ScanError{Path: c.entries[first.i].path, Err: first.err}
	}
	return evalMetas(q, metas)
}

// metaOf is what a query keeps of one file's (CRLF-normalised) head.
func metaOf(path string, content []byte, capped bool, v *recView, seen map[string]struct{}) FileMeta {
	if len(content) == 0 {
		return FileMeta{Empty: true}
	}
	v.parse(content)
	if capped && v.present && !v.terminated {
		return FileMeta{Skip: true}
	}
	return metaParsed(path, v, seen)
}

// metaParsed is [metaOf] of the parsed head v of a file that is neither
// empty nor skipped.
func metaParsed(path string, v *recView, seen map[string]struct{}) FileMeta {
	m := FileMeta{Rec: *recordOf(path, v)}
	clear(seen)
	v.eachLeaf("keywords", func(b []byte) {
		eachAlnumToken(b, true, func(tok []byte) {
			if _, dup := seen[string(tok)]; dup {
				return
			}
			t := string(tok)
			seen[t] = struct{}{}
			m.Tokens = append(m.Tokens, t)
		})
	})
	return m
}

// evalMetas is the second half of [Corpus.Query] over metadata in corpus
// order (nil: not part of the narrowed set).
func evalMetas(q Query, metas []*FileMeta) ([]Record, error) {
	qtoks, qidx, ranked := queryTerms(q.Keyword)
	// Only the narrowed set has slots (answer and rank skip the others).
	var slots []slot
	for _, m := range metas {
		if m == nil || m.Empty || m.Skip || !m.Rec.structural(q) {
			continue
		}
		slots = append(slots, slot{narrowed: true})
		s := &slots[len(slots)-1]
		if q.Keyword != "" {
			s.dl = len(m.Tokens)
			for _, t := range m.Tokens {
				if k, ok := qidx[t]; ok {
					s.matched = append(s.matched, k)
				}
			}
			if len(s.matched) == 0 {
				continue
			}
		}
		s.rec = &m.Rec
	}
	return answer(slots, len(slots), len(qtoks), ranked, q)
}

// firstErr keeps the error reported for the lowest corpus position (by
// several goroutines at once).
type firstErr struct {
	mu  sync.Mutex
	i   int
	err error
}

func (f *firstErr) set(i int, err error) {
	f.mu.Lock()
	if f.err == nil || i < f.i {
		f.i, f.err = i, err
	}
	f.mu.Unlock()
}
