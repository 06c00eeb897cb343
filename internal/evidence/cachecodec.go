package evidence

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"unsafe"
)

// The cache's encoding: uvarints, varints, length-prefixed strings. A
// decoder never allocates more than the bytes left could hold, so a
// corrupt or hostile file costs at most its own size.

type enc struct{ b []byte }

func (e *enc) u(n uint64)   { e.b = binary.AppendUvarint(e.b, n) }
func (e *enc) i(n int64)    { e.b = binary.AppendVarint(e.b, n) }
func (e *enc) n(n int)      { e.u(uint64(n)) }
func (e *enc) s(s string)   { e.u(uint64(len(s))); e.b = append(e.b, s...) }
func (e *enc) raw(p []byte) { e.b = append(e.b, p...) }
func (e *enc) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

// stat encodes what identifies a file's content: device, inode, size,
// mtime, ctime.
func (e *enc) stat(st *fileStat) {
	e.u(st.dev)
	e.u(st.ino)
	e.i(st.size)
	e.i(st.mtime)
	e.i(st.ctime)
}

// stat decodes what enc.stat encodes.
func (d *dec) stat(st *fileStat) {
	st.dev, st.ino = d.u(), d.u()
	st.size, st.mtime, st.ctime = d.i(), d.i(), d.i()
}

var errCorrupt = errors.New("corrupt cache")

type dec struct {
	b   []byte
	err error
	// str, when set, is b's bytes as a string (sharedDec): strings are
	// cut from it, not copied
	str string
}

// sharedDec decodes b, which is never written again (a buffer the cache
// file was read into): the strings it decodes share b's bytes instead of
// each being a copy (the decoding of a changed run's index, and of a warm
// run's head, is mostly strings).
func sharedDec(b []byte) *dec {
	return &dec{b: b, str: unsafe.String(unsafe.SliceData(b), len(b))}
}

func (d *dec) fail() { d.err = errCorrupt; d.b = nil }

// varint reads one number with read (binary.Uvarint or binary.Varint).
func varint[T uint64 | int64](d *dec, read func([]byte) (T, int)) T {
	v, k := read(d.b)
	if k <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[k:]
	return v
}

func (d *dec) u() uint64 { return varint(d, binary.Uvarint) }
func (d *dec) i() int64  { return varint(d, binary.Varint) }

// n is a count or size that must fit in what is left (each item takes at
// least one byte).
func (d *dec) n() int {
	v := d.u()
	if v > uint64(len(d.b)) {
		d.fail()
		return 0
	}
	return int(v)
}

// count is a number of items that each take at least size bytes, and
// must fit in what is left: a slice made for them is never larger than
// the bytes could hold.
func (d *dec) count(size int) int {
	v := d.u()
	if v > uint64(len(d.b)/size) {
		d.fail()
		return 0
	}
	return int(v)
}

func (d *dec) raw(k int) []byte {
	if k > len(d.b) {
		d.fail()
		return nil
	}
	p := d.b[:k]
	d.b = d.b[k:]
	return p
}

// f64 reads a float64 as its 8 bits, little-endian.
func (d *dec) f64() float64 {
	if p := d.raw(8); len(p) == 8 {
		return math.Float64frombits(binary.LittleEndian.Uint64(p))
	}
	return 0
}

func (d *dec) s() string {
	if d.str == "" {
		return string(d.raw(d.n()))
	}
	n := d.n()
	at := len(d.str) - len(d.b)
	d.raw(n)
	if d.err != nil {
		return ""
	}
	return d.str[at : at+n]
}

func (d *dec) bool() bool {
	p := d.raw(1)
	return len(p) == 1 && p[0] == 1
}

func (e *enc) skipped(s *Skipped) {
	for _, v := range []int{s.Overlong, s.InvalidJSON, s.InvalidUTF8, s.Untrusted, s.Unreadable, s.FailOpenUnparseable,
		s.NegativeCounts, s.FractionalCounts, s.AbsurdCounts, s.InvalidCounts, s.OtherTypes} {
		e.n(v)
	}
	e.n(len(s.UnknownTypes))
	for k, v := range s.UnknownTypes {
		e.s(k)
		e.n(v)
	}
}

func (d *dec) skipped(s *Skipped) {
	for _, p := range []*int{&s.Overlong, &s.InvalidJSON, &s.InvalidUTF8, &s.Untrusted, &s.Unreadable, &s.FailOpenUnparseable,
		&s.NegativeCounts, &s.FractionalCounts, &s.AbsurdCounts, &s.InvalidCounts, &s.OtherTypes} {
		*p = int(d.u())
	}
	if k := d.n(); k > 0 {
		s.UnknownTypes = make(map[string]int, k)
		for range k {
			name := d.s()
			s.UnknownTypes[name] = int(d.u())
		}
	}
}

func (e *enc) strMap(m map[string]string) {
	e.n(len(m))
	for k, v := range m {
		e.s(k)
		e.s(v)
	}
}

// strMap decodes what enc.strMap encodes; nil when empty.
func (d *dec) strMap() map[string]string {
	k := d.count(2)
	if k == 0 {
		return nil
	}
	m := make(map[string]string, k)
	for range k {
		key := d.s()
		m[key] = d.s()
	}
	return m
}

func (e *enc) set(m map[string]bool) {
	e.n(len(m))
	for k := range m {
		e.s(k)
	}
}

// set decodes what enc.set encodes; nil when empty.
func (d *dec) set() map[string]bool {
	k := d.n()
	if k == 0 {
		return nil
	}
	m := make(map[string]bool, k)
	for range k {
		m[d.s()] = true
	}
	return m
}

// meta encodes what one file contributed besides its turns, and where
// its scan stands.
func (e *enc) meta(fs *fileScan) {
	e.s(fs.session)
	e.s(fs.agent)
	e.s(fs.skill)
	e.i(unixNano(fs.first))
	f := &fs.fork
	e.n(f.queryRecords)
	e.n(f.catBatches)
	e.set(f.catPaths)
	e.n(f.digestReads)
	e.bool(f.warmRead)
	e.n(len(f.violations))
	for _, v := range f.violations {
		e.s(v.Kind)
		e.s(v.Command)
	}
	e.n(f.unexpanded)
	e.s(f.firstQuery)
	e.strMap(fs.spawned)
	e.set(fs.digests)
	e.n(fs.typed)
	g := &fs.gates
	e.n(g.Denials)
	e.n(g.StopBlocks)
	e.n(g.Releases)
	e.skipped(&fs.skipped)
	e.i(fs.lines)
	e.i(fs.bytes)
	e.strMap(fs.pending)
	e.bool(fs.blocked)
}

// meta decodes what enc.meta encodes into a new fileScan.
func (d *dec) meta() *fileScan {
	fs := &fileScan{}
	fs.session, fs.agent, fs.skill = d.s(), d.s(), d.s()
	fs.first = fromUnixNano(d.i())
	f := &fs.fork
	f.queryRecords, f.catBatches = int(d.u()), int(d.u())
	f.catPaths = d.set()
	f.digestReads = int(d.u())
	f.warmRead = d.bool()
	if k := d.n(); k > maxViolations {
		d.fail()
	} else if k > 0 {
		f.violations = make([]Violation, k)
		for i := range f.violations {
			f.violations[i] = Violation{Kind: d.s(), Command: d.s()}
		}
	}
	f.unexpanded = int(d.u())
	f.firstQuery = d.s()
	if sp := d.strMap(); len(sp) > 0 {
		fs.spawned = sp
	}
	fs.digests = d.set()
	fs.typed = int(d.u())
	fs.gates.Denials, fs.gates.StopBlocks, fs.gates.Releases = int(d.u()), int(d.u()), int(d.u())
	d.skipped(&fs.skipped)
	fs.lines, fs.bytes = d.i(), d.i()
	fs.pending = d.strMap()
	fs.blocked = d.bool()
	if d.err != nil {
		return nil
	}
	return fs
}

// The fewest bytes a turn row and a part are encoded in: a count of them
// that would take more than the bytes left is corrupt.
const (
	minTurnLen = len(turnKey{}) + 9    // the key, the flags, the model, the time, five counts
	minPartLen = 4 + 1 + 2 + 5 + 8 + 3 // four strings, the era, two flags, five counts, the dollars, three numbers
)

// maxModels bounds the models one file's turns name in the cache.
const maxModels = 1 << 12

// turns encodes turn rows: the models they name, once each, then the rows.
func (e *enc) turns(turns []turnRow) {
	models := map[string]int{}
	var names []string
	for _, t := range turns {
		if _, ok := models[t.model]; !ok {
			models[t.model] = len(names)
			names = append(names, t.model)
		}
	}
	e.n(len(names))
	for _, m := range names {
		e.s(m)
	}
	e.n(len(turns))
	for _, t := range turns {
		e.raw(t.key[:])
		var flags byte
		if t.keyed {
			flags |= 1
		}
		if t.fast {
			flags |= 2
		}
		e.b = append(e.b, flags)
		e.n(models[t.model])
		e.i(t.at)
		for _, v := range t.u {
			e.u(uint64(v))
		}
		e.u(uint64(t.h1))
	}
}

// turns decodes what enc.turns encodes; counts out of range fail it.
func (d *dec) turns() []turnRow {
	k := d.n()
	if k > maxModels {
		d.fail()
		return nil
	}
	names := make([]string, k)
	for i := range names {
		names[i] = d.s()
	}
	turns := make([]turnRow, d.count(minTurnLen))
	for i := range turns {
		t := &turns[i]
		copy(t.key[:], d.raw(len(t.key)))
		flags := d.raw(1)
		if len(flags) == 1 {
			t.keyed, t.fast = flags[0]&1 != 0, flags[0]&2 != 0
		}
		m := int(d.u())
		if m >= len(names) {
			d.fail()
			return nil
		}
		t.model = names[m]
		t.at = d.i()
		for j := range t.u {
			t.u[j] = int64(d.u())
			if t.u[j] < 0 || t.u[j] > MaxCount {
				d.fail()
			}
		}
		t.h1 = int64(d.u())
		if t.h1 < 0 || t.h1 > t.u[1] {
			d.fail()
		}
	}
	return turns
}

// parts encodes a file's parts.
func (e *enc) parts(ps []part) {
	e.n(len(ps))
	for i := range ps {
		p := &ps[i]
		e.s(p.model)
		e.s(p.day)
		e.s(p.week)
		e.s(p.month)
		e.b = append(e.b, p.era)
		e.bool(p.priced)
		e.bool(p.sat)
		for _, v := range p.u {
			e.u(uint64(v))
		}
		e.u(uint64(p.total))
		e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(p.usd))
		e.n(p.turns)
		e.i(p.first)
		e.i(p.last)
	}
}

// parts decodes what enc.parts encodes; a part that cannot be (a count
// out of range, an era that is none) fails it.
func (d *dec) parts() []part {
	ps := make([]part, d.count(minPartLen))
	for i := range ps {
		p := &ps[i]
		p.model, p.day, p.week, p.month = d.s(), d.s(), d.s(), d.s()
		if era := d.raw(1); len(era) == 1 && era[0] <= eraAfter {
			p.era = era[0]
		} else {
			d.fail()
		}
		p.priced, p.sat = d.bool(), d.bool()
		for j := range p.u {
			p.u[j] = int64(d.u())
		}
		p.total = int64(d.u())
		p.usd = d.f64()
		turns := d.u()
		p.turns = int(min(turns, math.MaxInt32))
		p.first, p.last = d.i(), d.i()
		if d.err != nil || turns > math.MaxInt32 || p.total < 0 || slices.ContainsFunc(p.u[:], func(v int64) bool { return v < 0 }) {
			d.fail()
			return nil
		}
	}
	return ps
}
