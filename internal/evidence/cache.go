package evidence

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/procedures-go/procedures/internal/fsx"
)

// The per-user cache of the sweep: for each transcript, what it
// contributed and where its scan stands, keyed by device, inode, size,
// mtime and ctime. An unchanged file is not read again; a file that only
// grew is read from where the last scan stopped (its last complete line);
// anything else is read whole. One cache file per projects directory and
// window (--since, --until, --session), under the index's cache directory.

// cacheVersion changes whenever the encoding or what a scan records
// changes; a cache of another version is rebuilt.
const cacheVersion = 4

const cacheMagic = "procedures evidence cache\n"

// racyWindow: a file whose mtime or ctime is not this much older than the
// moment of the stat that recorded it could have changed again within the
// file system's timestamp granularity; its entry is never trusted as
// unchanged (git's racy-clean rule, against the time of the stat).
var racyWindow = 2 * time.Second

// maxCacheFile bounds the cache file read; a larger one is ignored.
const maxCacheFile = 256 << 20

// maxCacheFiles bounds the cache files kept (one per projects directory
// and window); the least recently written go first.
const maxCacheFiles = 16

type fileStat struct {
	dev, ino               uint64
	size, mtime, ctime, at int64
}

type cacheEntry struct {
	fileStat
	resumable bool   // the read part ended with a newline
	sum       uint32 // CRC-32C of the part read
	turns     int    // how many turns the scan holds
	raw       []byte // the scan, encoded: decoded on first use, written again as is while unchanged
	scan      *fileScan
}

// load decodes the entry's scan when it has not been yet.
func (e *cacheEntry) load() *fileScan {
	if e.scan == nil && e.raw != nil {
		d := &dec{b: e.raw}
		if fs := d.scan(); fs != nil && len(d.b) == 0 {
			fs.sum = e.sum
			e.scan = fs
		}
		if e.scan == nil {
			e.raw = nil
		}
	}
	return e.scan
}

// The cache's verdicts on a file.
const (
	cacheMiss = iota
	cacheHit
	cacheResume
)

// judge compares the file as stat'ed now with the entry.
func (e *cacheEntry) judge(now fileStat, f *os.File) int {
	if e.dev == 0 || now.dev != e.dev || now.ino != e.ino {
		return cacheMiss
	}
	racy := e.mtime > e.at-int64(racyWindow) || e.ctime > e.at-int64(racyWindow)
	if now.size == e.size && now.mtime == e.mtime && now.ctime == e.ctime && !racy {
		return cacheHit
	}
	if now.size > e.size && e.resumable {
		// An append, not a rewrite, when the part read before is intact:
		// its CRC-32C (computed while it was scanned) is read again.
		if sum, ok := crcOf(f, e.size); ok && sum == e.sum {
			return cacheResume
		}
	}
	return cacheMiss
}

// crcOf is the CRC-32C of f's first size bytes.
func crcOf(f *os.File, size int64) (uint32, bool) {
	h := crc32.New(castagnoli())
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, size)); err != nil {
		return 0, false
	}
	return h.Sum32(), true
}

// A cache is the entries read at the start of a sweep and those to write
// at its end.
type cache struct {
	path    string
	key     string
	f       *os.File // the cache file read, open until its body is read
	bodyAt  int64    // where its body starts, and how long it is
	bodyLen int64
	old     map[string]*cacheEntry
	mu      sync.Mutex
	next    map[string]*cacheEntry
	changed bool
	turns   int          // the turns the cache holds: the sweep's size hint
	head    memoHead     // the memo read
	newHead memoHead     // the memo to write
	hits    atomic.Int64 // files taken whole from the cache
	resumed atomic.Int64 // files read from where the last sweep stopped
}

// cacheKey names what a cache file holds: the projects directory and the
// window the scans were made with.
func cacheKey(projects string, o *Options) string {
	abs, err := filepath.Abs(projects)
	if err != nil {
		abs = projects
	}
	var b bytes.Buffer
	b.WriteString(abs)
	for _, t := range []time.Time{o.Since, o.Until} {
		b.WriteByte(0)
		if !t.IsZero() {
			b.WriteString(strconv.FormatInt(t.UnixNano(), 10))
		}
	}
	b.WriteByte(0)
	b.WriteString(o.Session)
	return b.String()
}

// The cache file: the magic and the version, then two parts, each its
// length, its bytes and their CRC-32C: the head (the key, the memo and
// the stats it was made from, and the body's length) and the body (an
// entry per transcript). A warm run reads and checks the head alone; the
// body is read only when the memo cannot answer.

// headRead is what is read first: the head of most cache files whole (a
// variable for tests).
var headRead int64 = 64 << 10

// openCache reads the head of the cache for this sweep from dir; a
// missing, foreign, corrupt or outdated cache is an empty one (and is
// replaced at the end). The file stays open for loadBody.
func openCache(dir, projects string, o *Options) *cache {
	key := cacheKey(projects, o)
	sum := sha256.Sum256([]byte(key))
	c := &cache{path: filepath.Join(dir, "evidence-"+hexString(sum[:8])+".cache"), key: key,
		old: map[string]*cacheEntry{}, next: map[string]*cacheEntry{}}
	if !ourDir(dir) {
		return c
	}
	f, size, err := openTrusted(c.path)
	if err != nil {
		return c
	}
	head, bodyAt, err := readHead(f, size)
	if err == nil {
		err = c.head.decode(head, key)
	}
	if err != nil || bodyAt+c.head.bodyLen != size {
		c.head = memoHead{}
		f.Close()
		return c
	}
	c.f, c.bodyAt, c.bodyLen = f, bodyAt, c.head.bodyLen
	return c
}

// loadBody reads the entries of the cache file opened, when the memo
// could not answer; a body that does not check is an empty cache.
func (c *cache) loadBody() {
	if c.f == nil {
		return
	}
	defer c.close()
	b := make([]byte, c.bodyLen)
	if _, err := c.f.ReadAt(b, c.bodyAt); err != nil {
		return
	}
	old, err := decodeBody(b)
	if err != nil {
		return
	}
	c.old = old
	for _, e := range old {
		c.turns += e.turns
	}
}

// close lets the cache file go.
func (c *cache) close() {
	if c.f != nil {
		c.f.Close()
		c.f = nil
	}
}

func hexString(p []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(p))
	for _, x := range p {
		out = append(out, digits[x>>4], digits[x&15])
	}
	return string(out)
}

// openTrusted opens a cache file that is a regular file of ours, not
// reached through a symlink, writable by no one else, and not too large,
// and returns its size.
func openTrusted(p string) (*os.File, int64, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|fsx.NoFollow|fsx.NonBlock, 0)
	if err != nil {
		return nil, 0, err
	}
	fi, err := f.Stat()
	if err == nil && (!fi.Mode().IsRegular() || !trusted(fi) || fi.Mode().Perm()&0o022 != 0 || fi.Size() > maxCacheFile) {
		err = errUntrusted
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, fi.Size(), nil
}

// readHead reads the magic, the version and the head of a cache file of
// size bytes, checks the head's CRC, and returns it with the offset of
// the body.
func readHead(f *os.File, size int64) ([]byte, int64, error) {
	b := make([]byte, min(size, headRead))
	if _, err := f.ReadAt(b, 0); err != nil {
		return nil, 0, err
	}
	if len(b) < len(cacheMagic) || string(b[:len(cacheMagic)]) != cacheMagic {
		return nil, 0, errCorrupt
	}
	d := &dec{b: b[len(cacheMagic):]}
	if d.u() != cacheVersion {
		return nil, 0, errCorrupt
	}
	n := d.u()
	at := int64(len(b) - len(d.b))
	if d.err != nil || n > uint64(size-at-4) {
		return nil, 0, errCorrupt
	}
	end := at + int64(n) + 4
	if end > int64(len(b)) {
		b = append(b, make([]byte, end-int64(len(b)))...)
		if _, err := f.ReadAt(b[headRead:], headRead); err != nil {
			return nil, 0, err
		}
	}
	head, sum := b[at:end-4], b[end-4:end]
	if crc32.Checksum(head, castagnoli()) != binary.LittleEndian.Uint32(sum) {
		return nil, 0, errCorrupt
	}
	return head, end, nil
}

// decodeBody reads the entries, their scans left encoded until used.
func decodeBody(b []byte) (map[string]*cacheEntry, error) {
	if len(b) < 4 {
		return nil, errCorrupt
	}
	body, sum := b[:len(b)-4], b[len(b)-4:]
	if crc32.Checksum(body, castagnoli()) != binary.LittleEndian.Uint32(sum) {
		return nil, errCorrupt
	}
	d := &dec{b: body}
	n := d.n()
	out := make(map[string]*cacheEntry, n)
	for range n {
		p := d.s()
		e := &cacheEntry{}
		d.stat(&e.fileStat)
		e.at = d.i()
		e.resumable = d.bool()
		e.sum = uint32(d.u())
		e.turns = d.n()
		e.raw = d.raw(d.n())
		if d.err != nil {
			return nil, d.err
		}
		out[p] = e
	}
	if len(d.b) != 0 {
		return nil, errCorrupt
	}
	return out, nil
}

// castagnoli is the CRC-32C table, made on first use (its tables are
// kilobytes; a command that never sweeps never pays for them).
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// keep carries an unchanged entry over.
func (c *cache) keep(p string, e *cacheEntry) {
	c.mu.Lock()
	c.next[p] = e
	c.mu.Unlock()
}

// store records a file just read (whole or resumed).
func (c *cache) store(p string, fs *fileScan, st fileStat, f *os.File) {
	e := &cacheEntry{fileStat: st, scan: fs}
	if st.size > 0 {
		var last [1]byte
		_, err := f.ReadAt(last[:], st.size-1)
		e.resumable = err == nil && last[0] == '\n'
	}
	c.mu.Lock()
	c.next[p] = e
	c.changed = true
	c.mu.Unlock()
}

// save writes the cache when anything changed (a file read, added or
// gone), atomically and 0600, then prunes old cache files.
func (c *cache) save(dir string) {
	if !c.changed && len(c.next) == len(c.old) && c.newHead.fp == c.head.fp {
		return
	}
	if err := ensureDir(dir); err != nil {
		return
	}
	paths := slices.Sorted(maps.Keys(c.next))
	size := 16
	for _, p := range paths {
		size += len(p) + 64 + len(c.next[p].raw)
	}
	body := &enc{b: make([]byte, 0, size)}
	body.n(len(paths))
	for _, p := range paths {
		x := c.next[p]
		body.s(p)
		body.stat(&x.fileStat)
		body.i(x.at)
		body.bool(x.resumable)
		body.u(uint64(x.scan.sum))
		body.n(len(x.scan.turns))
		raw := x.raw
		if raw == nil {
			b := &enc{}
			b.scan(x.scan)
			raw = b.b
		}
		body.n(len(raw))
		body.raw(raw)
	}
	body.b = binary.LittleEndian.AppendUint32(body.b, crc32.Checksum(body.b, castagnoli()))
	c.newHead.bodyLen = int64(len(body.b))
	head := c.newHead.encode(c.key)
	e := &enc{b: make([]byte, 0, len(cacheMagic)+len(head)+len(body.b)+24)}
	e.raw([]byte(cacheMagic))
	e.u(cacheVersion)
	e.n(len(head))
	e.raw(head)
	e.b = binary.LittleEndian.AppendUint32(e.b, crc32.Checksum(head, castagnoli()))
	e.raw(body.b)
	if len(e.b) > maxCacheFile {
		return
	}
	if err := writeCache(c.path, e.b); err != nil {
		return
	}
	prune(dir, c.path)
}

// ensureDir makes the cache directory (0700) when missing, and its
// parent ($HOME/.cache) when that alone is missing, never more (a missing
// home stays missing); then it checks the directory is ours.
func ensureDir(dir string) error {
	err := os.Mkdir(dir, 0o700)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.Mkdir(filepath.Dir(dir), 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		err = os.Mkdir(dir, 0o700)
	}
	if err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	if !ourDir(dir) {
		return errUntrusted
	}
	return nil
}

// ourDir reports whether dir is a directory (not a symlink) of ours that
// no one else can write.
func ourDir(dir string) bool {
	fi, err := os.Lstat(dir)
	return err == nil && fi.IsDir() && trusted(fi) && fi.Mode().Perm()&0o022 == 0
}

// prune removes the oldest evidence cache files beyond maxCacheFiles.
func prune(dir, keep string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type old struct {
		p  string
		at time.Time
	}
	var olds []old
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if !e.Type().IsRegular() || p == keep || filepath.Ext(p) != ".cache" || !bytes.HasPrefix([]byte(e.Name()), []byte("evidence-")) {
			continue
		}
		if fi, err := e.Info(); err == nil {
			olds = append(olds, old{p, fi.ModTime()})
		}
	}
	if len(olds) < maxCacheFiles {
		return
	}
	slices.SortFunc(olds, func(a, b old) int { return a.at.Compare(b.at) })
	for _, o := range olds[:len(olds)-maxCacheFiles+1] {
		_ = os.Remove(o.p)
	}
}
