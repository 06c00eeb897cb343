package evidence

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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
const cacheVersion = 7

const cacheMagic = "procedures evidence cache\n" // 26 bytes

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

// The cache's verdicts on a file.
const (
	cacheMiss  = iota
	cacheHit   // unchanged
	cacheGrown // the same file, longer: an append when resumes says so
)

// judge compares the file as stat'ed now with the entry.
func (e *cacheEntry) judge(now fileStat) int {
	if e.dev == 0 || now.dev != e.dev || now.ino != e.ino {
		return cacheMiss
	}
	racy := e.mtime > e.at-int64(racyWindow) || e.ctime > e.at-int64(racyWindow)
	if now.size == e.size && now.mtime == e.mtime && now.ctime == e.ctime && !racy {
		return cacheHit
	}
	if now.size > e.size && e.resumable {
		return cacheGrown
	}
	return cacheMiss
}

// resumes reports whether a grown file is an append, not a rewrite: the
// part read before is intact, its CRC-32C (computed while it was
// scanned) read again.
func (e *cacheEntry) resumes(f *os.File) bool {
	sum, ok := crcOf(f, e.size)
	return ok && sum == e.sum
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
	path     string
	key      string
	f        *os.File       // the cache file read, open to the end of the sweep
	bodyOnce sync.Once      // the body's reading, started once (startBody)
	bodyRead sync.WaitGroup // done when it is read
	old      map[string]*cacheEntry
	partsKey string     // the options the parts are made under (partsKey)
	now      []fileStat // the transcripts stat'ed for the memo, in the sweep's order
	table    []byte     // the key table read, in place (nil: none, or its parts were made under other options)
	mu       sync.Mutex
	next     map[string]*cacheEntry
	changed  bool
	head     memoHead     // the memo read
	hits     atomic.Int64 // files taken whole from the cache
	resumed  atomic.Int64 // files read from where the last sweep stopped
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

// The cache file: a fixed block (the magic, the version, and where the
// head is, how long it is and its CRC-32C), the body (cachebody.go), the
// memo (the last report, as JSON) and the head (the key, the fingerprint
// of the memo's inputs with every transcript's stat, the directories
// discovery read, and the lengths of the parts before it). A warm run
// reads the fixed block, the head and the memo; a changed one reads the
// body's index instead of the memo. The head and the memo come last so
// that the report can be encoded while the body is written.

// superLen is the size of the fixed block.
const superLen = 64

// openCache reads the head of the cache for this sweep from dir; a
// missing, foreign, corrupt or outdated cache is an empty one (and is
// replaced at the end). The file stays open for the memo and the body.
func openCache(dir, projects string, o *Options) *cache {
	key := cacheKey(projects, o)
	sum := sha256.Sum256([]byte(key))
	c := &cache{path: filepath.Join(dir, "evidence-"+hexString(sum[:8])+".cache"), key: key,
		partsKey: partsKey(o), old: map[string]*cacheEntry{}, next: map[string]*cacheEntry{}}
	if !ourDir(dir) {
		return c
	}
	f, size, err := openTrusted(c.path)
	if err != nil {
		return c
	}
	head, headAt, err := readHead(f, size)
	if err == nil {
		err = c.head.decode(head, key)
	}
	h := &c.head
	if err != nil || superLen+h.regionLen+h.indexLen+h.memoLen != headAt {
		c.head = memoHead{}
		f.Close()
		return c
	}
	c.f = f
	return c
}

// readHead reads the fixed block of a cache file of size bytes, then the
// head it points to, checks the head's CRC, and returns it with its
// offset.
func readHead(f *os.File, size int64) ([]byte, int64, error) {
	var sb [superLen]byte
	if size < superLen {
		return nil, 0, errCorrupt
	}
	if _, err := f.ReadAt(sb[:], 0); err != nil {
		return nil, 0, err
	}
	if string(sb[:len(cacheMagic)]) != cacheMagic || sb[len(cacheMagic)] != cacheVersion {
		return nil, 0, errCorrupt
	}
	p := sb[len(cacheMagic)+1:]
	at, n, sum := int64(binary.LittleEndian.Uint64(p)), int64(binary.LittleEndian.Uint32(p[8:])), binary.LittleEndian.Uint32(p[12:])
	if at < superLen || at > size || n != size-at {
		return nil, 0, errCorrupt
	}
	head := make([]byte, n)
	if _, err := f.ReadAt(head, at); err != nil {
		return nil, 0, err
	}
	if crc32.Checksum(head, castagnoli()) != sum {
		return nil, 0, errCorrupt
	}
	return head, at, nil
}

// super is the fixed block of a cache file whose head, of the given
// bytes, starts at headAt.
func super(headAt int64, head []byte) []byte {
	b := make([]byte, superLen)
	copy(b, cacheMagic)
	b[len(cacheMagic)] = cacheVersion
	p := b[len(cacheMagic)+1:]
	binary.LittleEndian.PutUint64(p, uint64(headAt))
	binary.LittleEndian.PutUint32(p[8:], uint32(len(head)))
	binary.LittleEndian.PutUint32(p[12:], crc32.Checksum(head, castagnoli()))
	return b
}

// loadMemo reads the memo of the cache file opened; nil when it does not
// check.
func (c *cache) loadMemo() []byte {
	h := &c.head
	if c.f == nil || h.memoLen <= 0 {
		return nil
	}
	if h.memo == nil {
		b := make([]byte, h.memoLen)
		if _, err := c.f.ReadAt(b, superLen+h.regionLen+h.indexLen); err != nil || crc32.Checksum(b, castagnoli()) != h.memoSum {
			h.memoLen = 0
			return nil
		}
		h.memo = b
	}
	return h.memo
}

// close lets the cache file go.
func (c *cache) close() {
	c.bodyRead.Wait()
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

// castagnoli is the CRC-32C table, made on first use (its tables are
// kilobytes; a command that never sweeps never pays for them).
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// hit is the scan of the unchanged file i of the sweep, taken from its
// entry without opening the file (by the stat the memo took, when there
// is one); nil when the file changed or the entry does not decode.
func (c *cache) hit(i int, tr transcript, e *cacheEntry) *fileScan {
	var st fileStat
	if len(c.now) > i {
		st = c.now[i]
	} else {
		at := time.Now()
		if fi, err := os.Lstat(tr.path); err == nil && fi.Mode().IsRegular() && trusted(fi) {
			st = statOf(fi, at)
		}
	}
	if st.dev == 0 || e.judge(st) != cacheHit {
		return nil
	}
	fs := e.load()
	if fs == nil {
		return nil
	}
	fs.tr = tr
	c.hits.Add(1)
	c.mu.Lock()
	c.next[tr.path] = e
	c.mu.Unlock()
	return fs
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

// drop forgets a file's entry: the next sweep reads it whole.
func (c *cache) drop(p string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	delete(c.next, p)
	c.changed = true
	c.mu.Unlock()
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

// staleTemp is the age from which a cache file being written
// (.evidence-*.tmp) is taken for one a crashed sweep left.
const staleTemp = time.Hour

func isStaleTemp(e fs.DirEntry) bool {
	if !e.Type().IsRegular() || !strings.HasPrefix(e.Name(), ".evidence-") || !strings.HasSuffix(e.Name(), ".tmp") {
		return false
	}
	fi, err := e.Info()
	return err == nil && time.Since(fi.ModTime()) > staleTemp
}

// prune removes the oldest evidence cache files beyond maxCacheFiles,
// and the files of sweeps that crashed while writing one.
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
		if isStaleTemp(e) {
			_ = os.Remove(p)
			continue
		}
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
