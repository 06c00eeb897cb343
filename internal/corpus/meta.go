package corpus

import (
	"encoding/binary"
	"slices"
)

// The encoding of a [FileMeta] that a [MetaCache] stores: a flags byte
// (bit 0 Empty, bit 1 Skip), then id, kind, project, status and gloss, then
// the keywords and the links, each string a uvarint length and its bytes,
// each list a uvarint count and its strings. The keyword tokens are not
// stored: [DecodeMeta] derives them from the keywords, which is what the
// read did. A query that reads a file encodes it straight from the parsed
// head, so a cold query builds a [Record] only for its matches.

// AppendMeta appends the encoding of m to b.
func AppendMeta(b []byte, m FileMeta) []byte {
	b = append(b, metaFlags(m.Empty, m.Skip))
	r := &m.Rec
	for _, s := range []string{r.ID, r.Kind, r.Project, r.Status, r.Gloss} {
		b = appendMetaStr(b, s)
	}
	b = binary.AppendUvarint(b, uint64(len(r.Keywords)))
	for _, s := range r.Keywords {
		b = appendMetaStr(b, s)
	}
	b = binary.AppendUvarint(b, uint64(len(r.Links)))
	for _, s := range r.Links {
		b = appendMetaStr(b, s)
	}
	return b
}

func metaFlags(empty, skip bool) byte {
	var f byte
	if empty {
		f |= 1
	}
	if skip {
		f |= 2
	}
	return f
}

func appendMetaStr[S ~string | ~[]byte](b []byte, s S) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// appendMetaOf appends the encoding of [metaOf]'s result for the parsed
// head v (see [QueryCached]) without building it: the same bytes as
// AppendMeta(b, metaOf(...)).
func appendMetaOf(b []byte, content []byte, capped bool, v *recView) []byte {
	if len(content) == 0 {
		return AppendMeta(b, FileMeta{Empty: true})
	}
	if capped && v.present && !v.terminated {
		return AppendMeta(b, FileMeta{Skip: true})
	}
	b = append(b, 0)
	for _, k := range [...]string{"id", "kind", "project", "status"} {
		b = appendMetaStr(b, v.scalar(k))
	}
	// The gloss is appended in place after one byte kept for its length's
	// varint, which is written there once known.
	at := len(b)
	b = appendGloss(append(b, 0), v.body, v.present && !v.terminated)
	b = putUvarint(b, at, len(b)-at-1)
	// Each list's count, too, is written in front of its strings.
	at, n := len(b), 0
	b = append(b, 0)
	v.eachLeaf("keywords", func(s []byte) { b, n = appendMetaStr(b, s), n+1 })
	b = putUvarint(b, at, n)
	at, n = len(b), 0
	b = append(b, 0)
	v.eachLink(func(s []byte) { b, n = appendMetaStr(b, s), n+1 })
	return putUvarint(b, at, n)
}

// putUvarint writes the uvarint x into the one byte kept for it at b[at],
// moving what follows when x needs more (128 or more).
func putUvarint(b []byte, at, x int) []byte {
	if x < 0x80 {
		b[at] = byte(x)
		return b
	}
	var tmp [binary.MaxVarintLen64]byte
	n := binary.PutUvarint(tmp[:], uint64(x))
	b = append(b, tmp[1:n]...) // n-1 more bytes
	copy(b[at+n:], b[at+1:len(b)-(n-1)])
	copy(b[at:], tmp[:n])
	return b
}

// DecodeMeta decodes a FileMeta encoded by [AppendMeta], with path as its
// record's path (malformed input decodes to zero fields, never a panic).
// Its strings share meta. The keyword tokens are derived only when tokens
// is set.
func DecodeMeta(path, meta string, tokens bool) FileMeta {
	d := NewDecoder(meta)
	var m FileMeta
	flags := d.Byte()
	m.Empty, m.Skip = flags&1 != 0, flags&2 != 0
	r := &m.Rec
	r.Path = path
	r.ID, r.Kind, r.Project, r.Status, r.Gloss = d.Str(), d.Str(), d.Str(), d.Str(), d.Str()
	r.Keywords = d.Strs()
	r.Links = d.Strs()
	if tokens && len(r.Keywords) > 0 {
		m.Tokens = sharedTokens(r.Keywords)
	}
	return m
}

// decodeFor is [DecodeMeta] for query q: a record that fails q's
// structural filters is only marked Skip (never part of the narrowed set),
// found without building its Record, and the keyword tokens are derived
// only for a keyword query.
func decodeFor(path, meta string, q Query) FileMeta {
	if q.filtered() {
		d := NewDecoder(meta)
		if flags := d.Byte(); flags&3 != 0 {
			return FileMeta{Empty: flags&1 != 0, Skip: flags&2 != 0}
		}
		id, kind, project := d.Str(), d.Str(), d.Str()
		hasLink := func(token string) bool {
			d.Str() // status
			d.Str() // gloss
			for k := d.Uvarint(); k > 0 && d.ok; k-- {
				d.Str() // keywords
			}
			for k := d.Uvarint(); k > 0 && d.ok; k-- {
				if d.Str() == token {
					return true
				}
			}
			return false
		}
		if !q.admits(id, kind, project, hasLink) {
			return FileMeta{Skip: true}
		}
	}
	return DecodeMeta(path, meta, q.Keyword != "")
}

// sharedTokens is [keywordTokens] of keywords with every token a
// substring of the keywords (when none holds an upper-case letter or a
// bracket) or of one string holding them all lowered, brackets dropped: a
// record's tokens cost it one allocation, or two. A record has few tokens,
// so duplicates are found by a scan of those kept so far, and through a
// set beyond 16.
func sharedTokens(keywords []string) []string {
	src := keywords
	if slices.ContainsFunc(keywords, needsFolding) {
		// Tokens never span two keywords: one space between them.
		n := 0
		for _, k := range keywords {
			n += len(k) + 1
		}
		b := make([]byte, 0, n)
		for _, k := range keywords {
			for j := 0; j < len(k); j++ {
				if c := k[j]; c != '[' && c != ']' {
					b = append(b, lowerASCII(c))
				}
			}
			b = append(b, ' ')
		}
		src = []string{string(b)}
	}
	var out []string
	var seen map[string]struct{}
	add := func(t string) {
		if seen != nil {
			if _, dup := seen[t]; !dup {
				seen[t] = struct{}{}
				out = append(out, t)
			}
			return
		}
		if slices.Contains(out, t) {
			return
		}
		out = append(out, t)
		if len(out) > 16 {
			seen = make(map[string]struct{}, 2*len(out))
			for _, o := range out {
				seen[o] = struct{}{}
			}
		}
	}
	for _, k := range src {
		start := -1
		for j := 0; j <= len(k); j++ {
			if j < len(k) && isAlnum(k[j]) {
				if start < 0 {
					start = j
				}
				continue
			}
			if start >= 0 && j-start >= MinTokenLen {
				add(k[start:j])
			}
			start = -1
		}
	}
	return out
}

// needsFolding reports whether k holds a byte that tokenising changes or
// drops inside a token: an upper-case letter or a bracket.
func needsFolding(k string) bool {
	for j := 0; j < len(k); j++ {
		if c := k[j]; c == '[' || c == ']' || c >= 'A' && c <= 'Z' {
			return true
		}
	}
	return false
}

// A Decoder reads the varint encoding of [AppendMeta] (and of the index
// files built on it) from a string, allocation-free: its strings share the
// decoded string. After the first malformed field OK reports false and
// every read returns a zero value.
type Decoder struct {
	s  string
	ok bool
}

// NewDecoder reads s.
func NewDecoder(s string) *Decoder { return &Decoder{s: s, ok: true} }

// OK reports whether every read so far was well formed.
func (d *Decoder) OK() bool { return d.ok }

// Rest is what is left to read.
func (d *Decoder) Rest() string { return d.s }

// Take returns the next n bytes (OK false when fewer are left).
func (d *Decoder) Take(n int) string {
	if !d.ok || n < 0 || n > len(d.s) {
		d.ok = false
		return ""
	}
	s := d.s[:n]
	d.s = d.s[n:]
	return s
}

// Uvarint reads an unsigned varint.
func (d *Decoder) Uvarint() uint64 {
	if !d.ok {
		return 0
	}
	var x uint64
	for shift := uint(0); shift < 64; shift += 7 {
		if len(d.s) == 0 {
			break
		}
		c := d.s[0]
		d.s = d.s[1:]
		x |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return x
		}
	}
	d.ok = false
	return 0
}

// Varint reads a signed (zig-zag) varint.
func (d *Decoder) Varint() int64 {
	u := d.Uvarint()
	return int64(u>>1) ^ -int64(u&1)
}

// Byte reads one byte.
func (d *Decoder) Byte() byte {
	if !d.ok || len(d.s) == 0 {
		d.ok = false
		return 0
	}
	c := d.s[0]
	d.s = d.s[1:]
	return c
}

// Str reads a length-prefixed string.
func (d *Decoder) Str() string {
	n := d.Uvarint()
	if !d.ok || n > uint64(len(d.s)) {
		d.ok = false
		return ""
	}
	return d.Take(int(n))
}

// Strs reads a count-prefixed list of strings; an empty list is nil.
func (d *Decoder) Strs() []string {
	n := d.Uvarint()
	if !d.ok || n > uint64(len(d.s)) {
		d.ok = false
		return nil
	}
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.Str()
	}
	return out
}
