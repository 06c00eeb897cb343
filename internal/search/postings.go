package search

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"strings"
	"unsafe"
)

// The inverted file a search index stores behind its entries: for every
// term, the entries (numbered from 0 in the index's order) holding it,
// with the term's raw frequency in each field. It holds no weight and no
// idf, so that the ranking's parameters can change without it: a search
// applies them when it ranks.
//
//	postings…  blocks…  directory  footer
//
// A term's postings are, for each entry holding it in increasing order,
// the gap from the entry before (the first one's number plus one), a byte
// whose bit f says the term occurs in field f, and the frequency in each
// such field; numbers are unsigned varints. A block is up to blockTerms
// dictionary entries in byte order, front-coded as the record statistics
// are (see [AppendStats]), each followed by the term's number of entries,
// the offset and length of its postings, and their CRC-32. The directory
// is the number of index entries, of terms and of blocks, then each
// block's first term, term count, offset, length and CRC-32. The footer is
// the directory's offset and length (eight bytes each), its CRC-32 (four;
// all little endian) and the magic "PSI1". A search reads the footer, the
// directory, the blocks holding its terms and those terms' postings, and
// checks the checksum of each part it reads, nothing else.

// ErrCorrupt is the error of an inverted file that is not well formed or
// whose checksum does not match.
var ErrCorrupt = errors.New("search: corrupt inverted file")

const (
	invMagic   = "PSI1"
	footerLen  = 8 + 8 + 4 + len(invMagic)
	blockTerms = 64
)

// crc is the CRC-32 (IEEE) of s, read in place.
func crc(s string) uint32 {
	return crc32.ChecksumIEEE(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// A Posting is one entry holding a term, and the term's frequency in each
// of the entry's fields.
type Posting struct {
	Entry int
	TF    [NumFields]uint16
}

// appendPosting appends p, which follows the entry prev (-1 for none).
func appendPosting(b []byte, prev int, p Posting) []byte {
	return appendTF(binary.AppendUvarint(b, uint64(p.Entry-prev)), &p.TF)
}

// A PostingList is one term's postings, not yet checked (see
// [PostingList.Each]).
type PostingList struct {
	df      int
	data    string
	sum     uint32
	entries int
}

// DF is the number of entries holding the term.
func (pl PostingList) DF() int { return pl.df }

// Each checks the list's checksum and calls fn with each posting, in
// entry order; ErrCorrupt when the list is not well formed (fn may have
// been called for some of it: the caller discards what it collected).
func (pl PostingList) Each(fn func(p Posting)) error {
	if crc(pl.data) != pl.sum {
		return ErrCorrupt
	}
	return eachPosting(pl.data, pl.df, pl.entries, fn)
}

// eachPosting decodes df postings of entries below entries from data, the
// whole of it.
func eachPosting(data string, df, entries int, fn func(p Posting)) error {
	d := reader{s: data, ok: true}
	prev := -1
	for range df {
		gap := d.uvarint()
		mask := d.byte()
		if !d.ok || gap == 0 || gap > uint64(entries-1-prev) || mask == 0 || mask >= 1<<NumFields {
			return ErrCorrupt
		}
		p := Posting{Entry: prev + int(gap)}
		for f := range NumFields {
			if mask&(1<<f) != 0 {
				p.TF[f] = uint16(min(d.uvarint(), 0xffff))
			}
		}
		if !d.ok {
			return ErrCorrupt
		}
		fn(p)
		prev = p.Entry
	}
	if len(d.s) != 0 {
		return ErrCorrupt
	}
	return nil
}

// A PostingsWriter writes an inverted file: [PostingsWriter.Add] each
// term's postings in term order, then [PostingsWriter.Close]. It keeps
// one small dictionary entry per term, never the postings.
type PostingsWriter struct {
	w       io.Writer
	err     error
	off     uint64
	entries int
	dict    []dictEntry
	buf     []byte
	last    string
}

type dictEntry struct {
	term   string
	df     int
	off, n uint64
	sum    uint32
}

// NewPostingsWriter writes to w the inverted file of entries index
// entries.
func NewPostingsWriter(w io.Writer, entries int) *PostingsWriter {
	return &PostingsWriter{w: w, entries: entries}
}

// Add writes the postings of term (after every term added before, in
// byte order); ps is in strictly increasing entry order, each below the
// number of entries. An empty ps adds nothing.
func (pw *PostingsWriter) Add(term string, ps []Posting) {
	if len(ps) == 0 || pw.err != nil {
		return
	}
	if len(pw.dict) > 0 && term <= pw.last {
		pw.err = errors.New("search: postings out of term order")
		return
	}
	pw.buf = pw.buf[:0]
	prev := -1
	for _, p := range ps {
		if p.Entry <= prev || p.Entry >= pw.entries {
			pw.err = errors.New("search: postings out of entry order")
			return
		}
		pw.buf = appendPosting(pw.buf, prev, p)
		prev = p.Entry
	}
	pw.dict = append(pw.dict, dictEntry{term: strings.Clone(term), df: len(ps), off: pw.off,
		n: uint64(len(pw.buf)), sum: crc32.ChecksumIEEE(pw.buf)})
	pw.last = pw.dict[len(pw.dict)-1].term
	pw.write(pw.buf)
}

func (pw *PostingsWriter) write(b []byte) {
	if pw.err != nil {
		return
	}
	_, pw.err = pw.w.Write(b)
	pw.off += uint64(len(b))
}

// Close writes the dictionary's blocks, the directory and the footer.
func (pw *PostingsWriter) Close() error {
	var dir []byte
	dir = binary.AppendUvarint(dir, uint64(pw.entries))
	dir = binary.AppendUvarint(dir, uint64(len(pw.dict)))
	nb := (len(pw.dict) + blockTerms - 1) / blockTerms
	dir = binary.AppendUvarint(dir, uint64(nb))
	for k := 0; k < len(pw.dict); k += blockTerms {
		terms := pw.dict[k:min(k+blockTerms, len(pw.dict))]
		b := pw.buf[:0]
		prev := ""
		for _, e := range terms {
			b = appendFrontCoded(b, prev, e.term)
			b = binary.AppendUvarint(b, uint64(e.df))
			b = binary.AppendUvarint(b, e.off)
			b = binary.AppendUvarint(b, e.n)
			b = binary.LittleEndian.AppendUint32(b, e.sum)
			prev = e.term
		}
		dir = binary.AppendUvarint(dir, uint64(len(terms[0].term)))
		dir = append(dir, terms[0].term...)
		dir = binary.AppendUvarint(dir, uint64(len(terms)))
		dir = binary.AppendUvarint(dir, pw.off)
		dir = binary.AppendUvarint(dir, uint64(len(b)))
		dir = binary.LittleEndian.AppendUint32(dir, crc32.ChecksumIEEE(b))
		pw.buf = b
		pw.write(b)
	}
	dirOff := pw.off
	pw.write(dir)
	var foot []byte
	foot = binary.LittleEndian.AppendUint64(foot, dirOff)
	foot = binary.LittleEndian.AppendUint64(foot, uint64(len(dir)))
	foot = binary.LittleEndian.AppendUint32(foot, crc32.ChecksumIEEE(dir))
	pw.write(append(foot, invMagic...))
	return pw.err
}

func appendFrontCoded(b []byte, prev, term string) []byte {
	shared := 0
	for shared < len(prev) && shared < len(term) && prev[shared] == term[shared] {
		shared++
	}
	b = binary.AppendUvarint(b, uint64(shared))
	b = binary.AppendUvarint(b, uint64(len(term)-shared))
	return append(b, term[shared:]...)
}

// An Inverted is a loaded inverted file (see [OpenInverted]).
type Inverted struct {
	s       string
	entries int
	blocks  []block
}

type block struct {
	first  string
	n      int
	off, l uint64
	sum    uint32
}

// OpenInverted reads the footer and directory of the inverted file s,
// checking the directory's checksum; the blocks and postings are checked
// when read. s must stay unchanged while the Inverted is used.
func OpenInverted(s string) (*Inverted, error) {
	if len(s) < footerLen || s[len(s)-len(invMagic):] != invMagic {
		return nil, ErrCorrupt
	}
	foot := s[len(s)-footerLen:]
	le := binary.LittleEndian
	dirOff, dirLen := le.Uint64([]byte(foot[:8])), le.Uint64([]byte(foot[8:16]))
	body := uint64(len(s) - footerLen)
	if dirOff > body || dirLen != body-dirOff {
		return nil, ErrCorrupt
	}
	dir := s[dirOff:body]
	if crc(dir) != le.Uint32([]byte(foot[16:20])) {
		return nil, ErrCorrupt
	}
	d := reader{s: dir, ok: true}
	v := &Inverted{s: s[:dirOff], entries: int(d.uvarint())}
	nt, nb := d.uvarint(), d.uvarint()
	if !d.ok || nb > uint64(len(dir)) || nt > nb*blockTerms || uint64(v.entries) > uint64(len(s)) {
		return nil, ErrCorrupt
	}
	v.blocks = make([]block, nb)
	for k := range v.blocks {
		b := &v.blocks[k]
		b.first = d.str()
		b.n, b.off, b.l = int(d.uvarint()), d.uvarint(), d.uvarint()
		b.sum = d.uint32()
		if !d.ok || b.n == 0 || b.n > blockTerms || b.off > dirOff || b.l > dirOff-b.off ||
			k > 0 && b.first <= v.blocks[k-1].first {
			return nil, ErrCorrupt
		}
	}
	if len(d.s) != 0 {
		return nil, ErrCorrupt
	}
	return v, nil
}

// Entries is the number of index entries the file was written for.
func (v *Inverted) Entries() int { return v.entries }

// Lookup is term's postings (ok false: no entry holds it), reading and
// checking the one block that would hold it.
func (v *Inverted) Lookup(term string) (pl PostingList, ok bool, err error) {
	lo, hi := 0, len(v.blocks) // the last block whose first term is <= term
	for lo < hi {
		m := (lo + hi) / 2
		if v.blocks[m].first <= term {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		return PostingList{}, false, nil
	}
	err = v.eachIn(lo-1, func(t string, p PostingList) bool {
		if t == term {
			pl, ok = p, true
		}
		return t < term
	})
	return pl, ok, err
}

// Each calls fn with every term and its postings, in term order, until fn
// returns false, checking each block as it reads it. The term is valid
// only during the call.
func (v *Inverted) Each(fn func(term string, pl PostingList) bool) error {
	for k := range v.blocks {
		stop := false
		err := v.eachIn(k, func(t string, pl PostingList) bool {
			stop = !fn(t, pl)
			return !stop
		})
		if err != nil || stop {
			return err
		}
	}
	return nil
}

// eachIn calls fn with the terms of block k, in order, while it returns
// true.
func (v *Inverted) eachIn(k int, fn func(term string, pl PostingList) bool) error {
	b := &v.blocks[k]
	s := v.s[b.off : b.off+b.l]
	if crc(s) != b.sum {
		return ErrCorrupt
	}
	d := reader{s: s, ok: true}
	var term []byte
	for i := range b.n {
		shared, l := d.uvarint(), d.uvarint()
		if !d.ok || shared > uint64(len(term)) || l > uint64(len(d.s)) {
			return ErrCorrupt
		}
		term = append(term[:shared], d.s[:l]...) // fn's term: valid during the call only
		d.s = d.s[l:]
		pl := PostingList{df: int(d.uvarint()), entries: v.entries}
		off, n := d.uvarint(), d.uvarint()
		pl.sum = d.uint32()
		if !d.ok || off > b.off || n > b.off-off || pl.df == 0 || uint64(pl.df) > n ||
			i == 0 && string(term) != b.first || i > 0 && shared == uint64(len(term)) {
			return ErrCorrupt
		}
		pl.data = v.s[off : off+n]
		if !fn(unsafe.String(unsafe.SliceData(term), len(term)), pl) {
			return nil
		}
	}
	if len(d.s) != 0 {
		return ErrCorrupt
	}
	return nil
}

// reader decodes varints and strings, remembering the first failure.
type reader struct {
	s  string
	ok bool
}

func (d *reader) uvarint() uint64 {
	x, n := binary.Uvarint([]byte(d.s[:min(len(d.s), binary.MaxVarintLen64)]))
	if n <= 0 {
		d.ok = false
		return 0
	}
	d.s = d.s[n:]
	return x
}

func (d *reader) byte() byte {
	if len(d.s) == 0 {
		d.ok = false
		return 0
	}
	c := d.s[0]
	d.s = d.s[1:]
	return c
}

func (d *reader) uint32() uint32 {
	if len(d.s) < 4 {
		d.ok = false
		return 0
	}
	x := binary.LittleEndian.Uint32([]byte(d.s[:4]))
	d.s = d.s[4:]
	return x
}

func (d *reader) str() string {
	n := d.uvarint()
	if !d.ok || n > uint64(len(d.s)) {
		d.ok = false
		return ""
	}
	s := d.s[:n]
	d.s = d.s[n:]
	return s
}
