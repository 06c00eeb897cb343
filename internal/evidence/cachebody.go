package evidence

import (
	"bufio"
	"encoding/binary"
	"hash/crc32"
	"io"
	"maps"
	"os"
	"slices"
)

// The cache file's body: the turns of every entry, one after the other
// (the region), then the index: the options the parts were made under,
// each entry (its stat, what its file contributed besides its turns, its
// parts, its contested turns, and where its turns are in the region,
// with their CRC-32C), the key table, and the index's CRC-32C. A changed
// sweep reads the index alone, and the turns of the files it splits
// again; it writes the next file with the turns of unchanged files
// copied from this one by the kernel, never through memory.

type cacheEntry struct {
	fileStat
	resumable bool   // the read part ended with a newline
	sum       uint32 // CRC-32C of the part read
	file      uint32 // its place in the body: its number in the key table
	// the scan, encoded in parts, each decoded on first use and written
	// again as is while unchanged: what the file contributed besides its
	// turns, its parts and its contested turns
	meta, parts, cont []byte
	// its turns: where they are in the cache file read, how long, and
	// their CRC-32C (an entry made this sweep has its turns in its scan)
	turnsAt, turnsLen int64
	turnsSum          uint32
	scan              *fileScan
}

// load decodes the entry's scan, all but its turns, when it has not been
// yet; nil when it does not decode.
func (e *cacheEntry) load() *fileScan {
	if e.scan != nil || e.meta == nil {
		return e.scan
	}
	d := sharedDec(e.meta)
	fs := d.meta()
	ok := fs != nil && len(d.b) == 0
	if ok {
		d = sharedDec(e.parts)
		fs.parts = d.parts()
		ok = d.err == nil && len(d.b) == 0
		d = sharedDec(e.cont)
		fs.cont = d.turns()
		ok = ok && d.err == nil && len(d.b) == 0
	}
	if !ok {
		e.meta = nil
		return nil
	}
	fs.sum, fs.entry = e.sum, e
	e.scan = fs
	return fs
}

// loadTurns reads and decodes the scan's turns from the cache file r;
// false when they do not check or decode.
func (e *cacheEntry) loadTurns(r io.ReaderAt) bool {
	fs := e.load()
	if fs == nil || r == nil {
		return false
	}
	if fs.turns != nil || e.turnsLen == 0 {
		return true
	}
	b := make([]byte, e.turnsLen)
	if _, err := r.ReadAt(b, e.turnsAt); err != nil || crc32.Checksum(b, castagnoli()) != e.turnsSum {
		return false
	}
	d := sharedDec(b)
	turns := d.turns()
	if d.err != nil || len(d.b) != 0 {
		return false
	}
	fs.turns = turns
	return true
}

// startBody starts reading the body (loadBody) in the background, once:
// as soon as the sweep sees the memo will not answer.
func (c *cache) startBody() {
	if c == nil {
		return
	}
	c.bodyOnce.Do(func() {
		c.bodyRead.Add(1)
		go func() {
			c.loadBody()
			c.bodyRead.Done()
			// The memo will be made: its encoders too, while this core
			// has time (encoding/json makes a type's encoder on first use).
			var r Report
			_, _ = r.indented()
		}()
	})
}

// oldTable is the key table read (nil without a cache, or when its
// parts were made under other options), and oldFiles the entries its
// files are numbered among.
func (c *cache) oldTable() []byte {
	if c == nil {
		return nil
	}
	return c.table
}

func (c *cache) oldFiles() int {
	if c == nil {
		return 0
	}
	return len(c.old)
}

// waitBody reads the body, or waits for the reading started.
func (c *cache) waitBody() {
	c.startBody()
	c.bodyRead.Wait()
}

// loadBody reads the index of the cache file opened, when the memo could
// not answer; an index that does not check is an empty cache. The file
// stays open: the turns are read from it when needed, and copied from it
// into the next.
func (c *cache) loadBody() {
	h := &c.head
	if c.f == nil {
		return
	}
	b := make([]byte, h.indexLen)
	if _, err := c.f.ReadAt(b, superLen+h.regionLen); err != nil {
		return
	}
	old, table, err := decodeIndex(b, c.partsKey, superLen, h.regionLen)
	if err != nil {
		return
	}
	c.old, c.table = old, table
}

// decodeIndex reads the index: the entries (each part left encoded until
// used) and the key table, which is nil when the parts were made under
// another key than partsKey. The region starts at regionAt in the file
// and is regionLen long.
func decodeIndex(b []byte, partsKey string, regionAt, regionLen int64) (map[string]*cacheEntry, []byte, error) {
	if len(b) < 4 {
		return nil, nil, errCorrupt
	}
	body, sum := b[:len(b)-4], b[len(b)-4:]
	if crc32.Checksum(body, castagnoli()) != binary.LittleEndian.Uint32(sum) {
		return nil, nil, errCorrupt
	}
	d := sharedDec(body)
	samePartsKey := d.s() == partsKey
	n := d.count(15) // a path, a stat, its time, flags, three parts, where its turns are
	out := make(map[string]*cacheEntry, n)
	for i := range n {
		p := d.s()
		e := &cacheEntry{file: uint32(i)}
		d.stat(&e.fileStat)
		e.at = d.i()
		e.resumable = d.bool()
		e.sum = uint32(d.u())
		e.meta, e.parts, e.cont = d.raw(d.n()), d.raw(d.n()), d.raw(d.n())
		off, size := d.u(), d.u()
		e.turnsSum = uint32(d.u())
		if d.err != nil || off > uint64(regionLen) || size > uint64(regionLen)-off {
			return nil, nil, errCorrupt
		}
		e.turnsAt, e.turnsLen = regionAt+int64(off), int64(size)
		out[p] = e
	}
	table := d.keyTable(n)
	if d.err != nil || len(d.b) != 0 {
		return nil, nil, errCorrupt
	}
	if !samePartsKey {
		table = nil
	}
	return out, table, nil
}

// A span is one entry's turns in the region written: new bytes, or a
// range of the cache file read (at >= 0).
type span struct {
	at, n int64
	b     []byte
}

// A saving is the next cache file being written: its body in the
// background (startSave), then its memo and head (finishSave).
type saving struct {
	f                   *os.File
	w                   *bufio.Writer
	regionLen, indexLen int64
	done                chan error
}

// startSave starts writing the next cache file's body, when files were
// read, added or gone, or their parts made again: the turns of every
// entry, then the index, while the sweep goes on. ks is the sweep's key
// table, its files numbered as in paths. It is nil when there is nothing
// to write yet, or the file cannot be made (and without a cache).
func (c *cache) startSave(dir string, paths []string, ks *keys, scans []*fileScan) *saving {
	if c == nil {
		return nil
	}
	for _, s := range scans {
		c.changed = c.changed || s.resplit && !s.fresh // parts made again: kept
	}
	if !c.changed && len(c.next) == len(c.old) {
		return nil
	}
	return c.begin(dir, paths, ks)
}

// begin starts writing the next cache file's body.
func (c *cache) begin(dir string, paths []string, ks *keys) *saving {
	if ensureDir(dir) != nil {
		return nil
	}
	f, err := newCacheFile(c.path)
	if err != nil {
		return nil
	}
	sv := &saving{f: f, w: bufio.NewWriterSize(f, 64<<10), done: make(chan error, 1)}
	go func() {
		sv.done <- c.writeBody(sv, paths, ks)
	}()
	return sv
}

// finishSave writes the memo (rep, encoded now: what its WriteJSON then
// writes) and the head h after the body, and puts the file in place of
// the last; with nothing started, it writes the whole file when the memo
// is new (h.fp is "" when there is no memo to keep).
func (c *cache) finishSave(sv *saving, dir string, paths []string, ks *keys, h memoHead, rep *Report) {
	if sv == nil {
		if h.fp == c.head.fp {
			return
		}
		if sv = c.begin(dir, paths, ks); sv == nil {
			return
		}
	}
	if h.fp != "" {
		if b, err := rep.indented(); err == nil {
			h.memo, rep.memoJSON = b, b
		}
	}
	err := <-sv.done
	if err == nil {
		err = c.writeHead(sv, h)
	}
	if err != nil {
		abortCache(sv.f)
		return
	}
	if commitCache(sv.f, c.path) == nil {
		prune(dir, c.path)
	}
}

// writeBody writes the fixed block's place, the region and the index.
func (c *cache) writeBody(sv *saving, paths []string, ks *keys) error {
	if _, err := sv.w.Write(make([]byte, superLen)); err != nil { // the fixed block, written last
		return err
	}
	order := slices.Sorted(maps.Keys(c.next))
	spans := c.spans(order)
	for _, s := range spans {
		sv.regionLen += s.n
	}
	if err := c.region(sv.w, sv.f, spans); err != nil {
		return err
	}
	out := &sink{w: sv.w}
	c.index(out, order, spans, paths, ks)
	sv.indexLen = out.count
	return out.err
}

// writeHead writes the memo and the head after the body, then the fixed
// block.
func (c *cache) writeHead(sv *saving, h memoHead) error {
	h.regionLen, h.indexLen = sv.regionLen, sv.indexLen
	h.memoLen, h.memoSum = int64(len(h.memo)), crc32.Checksum(h.memo, castagnoli())
	head := h.encode(c.key)
	headAt := superLen + h.regionLen + h.indexLen + h.memoLen
	if headAt+int64(len(head)) > maxCacheFile {
		return errCorrupt
	}
	for _, b := range [][]byte{h.memo, head} {
		if _, err := sv.w.Write(b); err != nil {
			return err
		}
	}
	if err := sv.w.Flush(); err != nil {
		return err
	}
	_, err := sv.f.WriteAt(super(headAt, head), 0)
	return err
}

// region writes the spans: new bytes through w, ranges of the cache file
// read copied into f, adjacent ranges at once.
func (c *cache) region(w *bufio.Writer, f *os.File, spans []span) error {
	for i := 0; i < len(spans); {
		s := spans[i]
		i++
		if s.at < 0 {
			if _, err := w.Write(s.b); err != nil {
				return err
			}
			continue
		}
		for i < len(spans) && spans[i].at >= 0 && spans[i].at == s.at+s.n {
			s.n += spans[i].n
			i++
		}
		if err := w.Flush(); err != nil {
			return err
		}
		if _, err := c.f.Seek(s.at, io.SeekStart); err != nil {
			return err
		}
		if n, err := io.Copy(f, io.LimitReader(c.f, s.n)); err != nil || n != s.n {
			return errCorrupt
		}
	}
	return nil
}

// spans is where the turns of each entry (in order, the next cache
// file's entries in path order) come from: the cache file read, or, for
// a file read now, its turns encoded (its meta too).
func (c *cache) spans(order []string) []span {
	spans := make([]span, len(order))
	for i, p := range order {
		x := c.next[p]
		if x.meta == nil { // read now: encoded whole
			x.meta = encoded(func(e *enc) { e.meta(x.scan) })
			b := encoded(func(e *enc) { e.turns(x.scan.turns) })
			spans[i] = span{at: -1, n: int64(len(b)), b: b}
			x.turnsSum = crc32.Checksum(b, castagnoli())
		} else {
			spans[i] = span{at: x.turnsAt, n: x.turnsLen}
		}
		if x.parts == nil || x.scan.resplit {
			x.parts = encoded(func(e *enc) { e.parts(x.scan.parts) })
			x.cont = encoded(func(e *enc) { e.turns(x.scan.cont) })
		}
	}
	return spans
}

// A sink is where the index is encoded: a small buffer passed on to w
// when full, with the CRC-32C and the count of what passed.
type sink struct {
	enc
	w     io.Writer
	count int64
	sum   uint32
	err   error
}

func (s *sink) flush() {
	s.sum = crc32.Update(s.sum, castagnoli(), s.b)
	s.count += int64(len(s.b))
	if s.err == nil {
		_, s.err = s.w.Write(s.b)
	}
	s.b = s.b[:0]
}

// maybeFlush passes the buffer on once it holds 32 KiB.
func (s *sink) maybeFlush() {
	if len(s.b) >= 32<<10 {
		s.flush()
	}
}

// index encodes the index of the next cache file into out: its entries
// (order), with the span of each entry's turns, and the key table
// renumbered to that order, then the CRC.
func (c *cache) index(out *sink, order []string, spans []span, paths []string, ks *keys) {
	out.s(c.partsKey)
	out.n(len(order))
	at := make(map[string]int32, len(order))
	var off int64
	for i, p := range order {
		at[p] = int32(i)
		x := c.next[p]
		out.s(p)
		out.stat(&x.fileStat)
		out.i(x.at)
		out.bool(x.resumable)
		out.u(uint64(x.scan.sum))
		for _, raw := range [][]byte{x.meta, x.parts, x.cont} {
			out.n(len(raw))
			out.raw(raw)
			out.maybeFlush()
		}
		out.u(uint64(off))
		out.u(uint64(spans[i].n))
		out.u(uint64(x.turnsSum))
		off += spans[i].n
	}
	body := make([]int32, len(paths)) // the sweep's file number -> the body's, -1 for none
	for i, p := range paths {
		if n, ok := at[p]; ok {
			body[i] = n
		} else {
			body[i] = -1
		}
	}
	ks.encode(out, func(file uint32) (uint32, bool) {
		n := body[file]
		return uint32(n), n >= 0
	})
	out.flush()
	out.b = binary.LittleEndian.AppendUint32(out.b, out.sum)
	out.flush()
}

func encoded(fn func(*enc)) []byte {
	e := &enc{}
	fn(e)
	return e.b
}
