package search

import (
	"encoding/binary"
	"slices"
	"strings"
	"unsafe"
)

// The encoding of a record's [DocStats] that a search hands to its index
// for a record it read again (which the index inverts: see [Inverter]):
// the four field lengths, then the number of terms and each term, in byte
// order, front-coded (the length of the prefix it shares with the term
// before, then the length and bytes of the rest), followed by a byte whose
// bit f says the term occurs in field f and the frequency of each such
// field; numbers are unsigned varints. A search reads the terms of such a
// record by comparing them in order with the query's sorted terms.

// AppendStats appends the encoding of d to b, sorting d's hits by term.
func AppendStats(b []byte, d *DocStats) []byte {
	slices.SortFunc(d.Hits, func(x, y Hit) int { return strings.Compare(x.Term, y.Term) })
	for f := range NumFields {
		b = binary.AppendUvarint(b, uint64(d.Len[f]))
	}
	b = binary.AppendUvarint(b, uint64(len(d.Hits)))
	prev := ""
	for _, h := range d.Hits {
		shared := 0
		for shared < len(prev) && shared < len(h.Term) && prev[shared] == h.Term[shared] {
			shared++
		}
		b = binary.AppendUvarint(b, uint64(shared))
		b = binary.AppendUvarint(b, uint64(len(h.Term)-shared))
		b = appendTF(append(b, h.Term[shared:]...), &h.TF)
		prev = h.Term
	}
	return b
}

// A StatsReader reads one record's encoded statistics.
type StatsReader struct {
	s    string
	n    int // terms left
	ok   bool
	term []byte // the last term read
}

// ReadStats starts reading the encoding s; lens are the field lengths. ok
// is false when s is malformed (then the record holds no term).
func ReadStats(s string) (r StatsReader, lens [NumFields]int32, ok bool) {
	r = StatsReader{s: s, ok: true}
	for f := range NumFields {
		lens[f] = int32(r.uvarint())
	}
	r.n = int(r.uvarint())
	if !r.ok || r.n > len(r.s) {
		return StatsReader{}, [NumFields]int32{}, false
	}
	return r, lens, true
}

// Next returns the next term and its frequencies; ok is false at the end
// or on malformed input. The term is only valid until the next call.
func (r *StatsReader) Next() (term string, tf [NumFields]uint16, ok bool) {
	if r.n == 0 || !r.ok {
		return "", tf, false
	}
	r.n--
	shared, l := r.uvarint(), r.uvarint()
	if !r.ok || shared > uint64(len(r.term)) || l > uint64(len(r.s)) || len(r.s) == int(l) {
		r.ok = false
		return "", tf, false
	}
	r.term = append(r.term[:shared], r.s[:l]...)
	mask := r.s[l]
	r.s = r.s[l+1:]
	for f := range NumFields {
		if mask&(1<<f) != 0 {
			tf[f] = uint16(min(r.uvarint(), 0xffff))
		}
	}
	return unsafe.String(unsafe.SliceData(r.term), len(r.term)), tf, r.ok
}

// OK reports whether everything read so far was well formed.
func (r *StatsReader) OK() bool { return r.ok }

func (r *StatsReader) uvarint() uint64 {
	x, n := binary.Uvarint([]byte(r.s[:min(len(r.s), binary.MaxVarintLen64)]))
	if n <= 0 {
		r.ok = false
		return 0
	}
	r.s = r.s[n:]
	return x
}

// Has reports whether t is one of the query's terms.
func (m *Matcher) Has(t string) bool { return m.query[t] }

// Sorted is the query's terms in byte order.
func (m *Matcher) Sorted() []string {
	s := slices.Clone(m.terms)
	slices.Sort(s)
	return s
}

// HasFallback reports whether a query term some record of docs would
// replace by its close spellings is held by none of them (see
// [Matcher.Rank]): only then do close spellings count.
func (m *Matcher) HasFallback(docs []*DocStats) bool {
	held := map[string]bool{}
	for _, d := range docs {
		if d == nil {
			continue
		}
		for _, h := range d.Hits {
			held[h.Term] = true
		}
	}
	for _, t := range m.terms {
		if !held[t] && maxEdits(t) > 0 {
			return true
		}
	}
	return false
}

// Close reports whether t is a close spelling of a query term (and not one
// itself).
func (w *Worker) Close(t string) bool { return !w.m.query[t] && w.hit(t) }

// AppendLens appends d's field lengths: what a search index keeps of a
// record beside its postings (see [OpenInverted]).
func AppendLens(b []byte, d *DocStats) []byte {
	for f := range NumFields {
		b = binary.AppendUvarint(b, uint64(d.Len[f]))
	}
	return b
}

// ReadLens reads field lengths that [AppendLens] wrote, the whole of s;
// ok is false when s is anything else.
func ReadLens(s string) (lens [NumFields]int32, ok bool) {
	d := reader{s: s, ok: true}
	for f := range NumFields {
		lens[f] = int32(min(d.uvarint(), 1<<31-1))
	}
	return lens, d.ok && len(d.s) == 0
}

// IsClose reports whether t is a close spelling of a query term (and not
// one itself), as [Worker.Close] does, without a worker's cache: for a
// scan of distinct terms.
func (m *Matcher) IsClose(t string) bool { return !m.query[t] && m.closeTo(t) != "" }

// appendTF appends a byte whose bit f says field f has a frequency, then
// each such frequency.
func appendTF(b []byte, tf *[NumFields]uint16) []byte {
	var mask byte
	for f := range NumFields {
		if tf[f] > 0 {
			mask |= 1 << f
		}
	}
	b = append(b, mask)
	for f := range NumFields {
		if tf[f] > 0 {
			b = binary.AppendUvarint(b, uint64(tf[f]))
		}
	}
	return b
}
