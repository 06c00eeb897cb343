package evidence

import (
	"cmp"
	"encoding/binary"
	"runtime"
	"slices"
	"sort"
)

// The key table: which files hold a turn of each key, so that a sweep
// knows which turns other files also have (contested) without reading
// the other files' turns. A key is the first 8 bytes of the turn's key (a
// turn whose prefix another file has is contested: settled by its full
// key, parts.go; a prefix shared by chance only sends a turn that way).
// The cache keeps the table as fixed records sorted by key then file;
// a sweep reads it in place, and writes the next one as it goes.

// keyRecLen is the size of a record in the cache: the key, big-endian
// (so that the bytes sort as the numbers), and the file, little-endian.
const keyRecLen = 12

type keyRec struct {
	key  uint64
	file uint32
}

func keyRecCmp(a, b keyRec) int {
	return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.file, b.file))
}

func prefixOf(k turnKey) uint64 { return binary.BigEndian.Uint64(k[:8]) }

// oldRec is the i-th record of a table kept as bytes.
func oldRec(b []byte, i int) keyRec {
	r := b[i*keyRecLen:]
	return keyRec{binary.BigEndian.Uint64(r), binary.LittleEndian.Uint32(r[8:])}
}

// keys is a sweep's key table, its files numbered in path order: the
// cache's table (old, as bytes, its files numbered as in the cache's
// body) for the files kept whole (renum: the cache's number to the
// sweep's, -1 for a file read again or gone), and the records of the
// files read now (add, sorted).
type keys struct {
	old   []byte
	renum []int32
	add   []keyRec
}

// files calls fn with each file that has key k.
func (ks *keys) files(k uint64, fn func(file uint32)) {
	n := len(ks.old) / keyRecLen
	for i := sort.Search(n, func(i int) bool { return oldRec(ks.old, i).key >= k }); i < n; i++ {
		r := oldRec(ks.old, i)
		if r.key != k {
			break
		}
		if f := ks.renum[r.file]; f >= 0 {
			fn(uint32(f))
		}
	}
	j, _ := slices.BinarySearchFunc(ks.add, keyRec{key: k}, keyRecCmp)
	for ; j < len(ks.add) && ks.add[j].key == k; j++ {
		fn(ks.add[j].file)
	}
}

// contested reports whether a file other than file has key k.
func (ks *keys) contested(k uint64, file uint32) bool {
	other := false
	ks.files(k, func(f uint32) { other = other || f != file })
	return other
}

// recsOf appends the keys of a file's keyed turns as records.
func recsOf(out []keyRec, turns []turnRow, file uint32) []keyRec {
	for i := range turns {
		if turns[i].keyed {
			out = append(out, keyRec{prefixOf(turns[i].key), file})
		}
	}
	return out
}

// each calls fn with every record in order, each once: the kept and the
// added, merged (two turns of one file whose keys share their first 8
// bytes are one record).
func (ks *keys) each(fn func(keyRec)) {
	var last keyRec
	first := true
	ks.merged(func(r keyRec) {
		if first || r != last {
			fn(r)
		}
		first, last = false, r
	})
}

// merged calls fn with the kept and the added records, merged in order.
func (ks *keys) merged(fn func(keyRec)) {
	n := len(ks.old) / keyRecLen
	i, j := 0, 0
	next := func() (keyRec, bool) {
		for i < n {
			r := oldRec(ks.old, i)
			i++
			if f := ks.renum[r.file]; f >= 0 {
				return keyRec{r.key, uint32(f)}, true
			}
		}
		return keyRec{}, false
	}
	a, okA := next()
	for okA || j < len(ks.add) {
		if okA && (j == len(ks.add) || keyRecCmp(a, ks.add[j]) <= 0) {
			fn(a)
			a, okA = next()
		} else {
			fn(ks.add[j])
			j++
		}
	}
}

// encode encodes the table, its files renumbered by to (false: the file
// has no entry, its records are left out), as a count and the records
// (to keeps the order: it numbers files in path order too).
func (ks *keys) encode(e *sink, to func(file uint32) (uint32, bool)) {
	count := 0
	ks.each(func(r keyRec) {
		if _, ok := to(r.file); ok {
			count++
		}
	})
	e.n(count)
	ks.each(func(r keyRec) {
		if f, ok := to(r.file); ok {
			e.b = binary.BigEndian.AppendUint64(e.b, r.key)
			e.b = binary.LittleEndian.AppendUint32(e.b, f)
			e.maybeFlush()
		}
	})
}

// keyTable reads a table of a body with files entries, in place: records
// out of order or naming no entry fail it.
func (d *dec) keyTable(files int) []byte {
	n := d.u()
	if n > uint64(len(d.b)/keyRecLen) {
		d.fail()
		return nil
	}
	b := d.raw(int(n) * keyRecLen)
	for i := range int(n) {
		r := oldRec(b, i)
		if int64(r.file) >= int64(files) || (i > 0 && keyRecCmp(oldRec(b, i-1), r) >= 0) {
			d.fail()
			return nil
		}
	}
	return b
}

// tally makes the parts of every file that needs them and returns the
// sweep's key table. Without a cache, or when the cache's parts were
// made under other options (old is nil), every file is split. With one,
// a file kept whole keeps its parts unless one of its keys is touched:
// held by a file read again or gone (the old table says), or by a file
// read now. Only those files' turns are decoded.
func tally(scans []*fileScan, o *Options, old []byte, oldFiles int, load func(i int) *fileScan) *keys {
	ks := &keys{}
	touched := map[uint64]bool{}
	if old != nil {
		ks.old, ks.renum = old, make([]int32, oldFiles)
		for i := range ks.renum {
			ks.renum[i] = -1
		}
		for i, s := range scans {
			if !s.fresh && s.entry != nil {
				ks.renum[s.entry.file] = int32(i)
			}
		}
		for i := range len(old) / keyRecLen {
			if r := oldRec(old, i); ks.renum[r.file] < 0 {
				touched[r.key] = true
			}
		}
	}
	redo := make([]bool, len(scans))
	for i, s := range scans {
		if old != nil && !s.fresh {
			continue
		}
		s = load(i)
		redo[i] = true
		at := len(ks.add)
		ks.add = recsOf(ks.add, s.turns, uint32(i))
		if old != nil {
			for _, r := range ks.add[at:] {
				touched[r.key] = true
			}
		}
	}
	slices.SortFunc(ks.add, keyRecCmp)
	for k := range touched {
		ks.files(k, func(f uint32) { redo[f] = true })
	}
	var todo []int
	for i := range scans {
		if redo[i] {
			todo = append(todo, i)
		}
	}
	splitAll(todo, o, func(pt *parter, i int) { pt.split(load(i), ks, uint32(i)) })
	if o.partsMade != nil && o.CacheDir != "" {
		*o.partsMade += int64(len(todo))
	}
	return ks
}

// splitAll calls split with each file of todo, on every core, each core
// with a parter of its own (a parter caches prices and periods).
func splitAll(todo []int, o *Options, split func(pt *parter, i int)) {
	onCores(len(todo), min(runtime.GOMAXPROCS(0), max(len(todo)/16, 1)), func() func(k int) {
		pt := newParter(o)
		return func(k int) { split(pt, todo[k]) }
	})
}
