// Package index is the persistent, stat-validated index of record
// metadata that query-records reads instead of re-reading every record.
//
// One index file per user, corpus root (resolved) and store set lives in
// $XDG_CACHE_HOME/procedures/ (else $HOME/.cache/procedures/), never inside
// the corpus. It holds, for each corpus file, what a query needs
// ([corpus.FileMeta]: id, kind, project, status, keywords, links, gloss;
// the keywords' tokens are derived from them when a keyword query loads an
// entry) and the file's stat (size, mtime, ctime, inode,
// device, mode), and each store directory's listing with the directory's
// stat (see [corpus.DirCache]). A query lstats every file and trusts an
// entry (a listing) only when the stat is identical to the stored one; a
// stat is stored as it was taken only when the file last changed strictly
// before the moment the run that took it began observing (git's
// racy-clean rule, see cachefile.Judge), else it is smudged and the next run reads
// the file again. Every other file is read and parsed again. The file is
// written atomically (write to a temporary file, rename) and only when
// something changed.
//
// The index is a cache, never a source of truth: one that is missing,
// unreadable, of another version, truncated or corrupt is rebuilt from
// scratch; one that is not a regular file owned by the user and writable
// by nobody else (a symlink, another user's file, a group- or
// other-writable file or directory) is ignored and replaced, never
// followed. PROCEDURES_NO_INDEX=1 turns it off.
package index

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/procedures-go/procedures/internal/cachefile"
	"github.com/procedures-go/procedures/internal/corpus"
	"github.com/procedures-go/procedures/internal/writerindex"
)

// Version is written in the index header; an index of any other version is
// rebuilt.
const Version = 6

// magic starts every index file; the version follows it on the same line.
const magic = cachefile.QueryMagic

// Options is the indexes' setting, as the command read it (see
// config.Index): Off turns them off, and Dir is the directory holding the
// index files ("" when none is usable: no index is then kept).
type Options = cachefile.Options

// entry is what a query read again: the stat and the encoded metadata
// (see [corpus.AppendMeta]).
type entry struct {
	St   corpus.FileStat
	meta []byte
}

// An Index is one corpus's index, loaded (or empty) and ready to serve as a
// [corpus.MetaCache] and a [corpus.DirCache] for one query; [Index.Save]
// writes it back, and [Index.Close] releases the loaded file once the
// query's records are no longer used. A nil *Index is the index turned
// off: [Index.Corpus] and [Index.Query] then list and read every file.
type Index struct {
	path    string // the index file; "" when the index cannot be kept
	root    string // the resolved root
	stores  []string
	opts    Options
	old     []lazy // the loaded entries, in path order
	oldDirs map[string]listing
	unmap   func()          // releases the loaded file (see Close); nil when none
	judge   cachefile.Judge // when this run began observing, and what is never racy
	srch    *searchState    // the search index's inverted file and new terms; nil for the query index

	mu    sync.Mutex // held by Save, and by Put into few
	paths []string   // the corpus's paths, as given to Start
	pos   []int32    // by corpus position: the loaded entry of its path, or -1
	// What the query read again, by position in the corpus's paths: in
	// next when the loaded index is empty (a cold query reads every file;
	// each worker writes its own positions; meta nil: not read), else in
	// few (a warm query reads few files, and keeps no slot per file).
	next []entry
	few  map[int]entry

	dirMu    sync.Mutex
	walked   bool // the corpus was listed through the index (Corpus)
	newDirs  map[string]listing
	usedDirs map[string]bool
}

// ForQuery is [Open] for a query over root and stores (nil: the default
// stores, as [corpus.Open] takes them), or nil when o turns the index off.
func ForQuery(root string, stores []string, o Options) *Index {
	if o.Off {
		return nil
	}
	if stores == nil {
		stores = corpus.DefaultStores()
	}
	return Open(root, stores, o)
}

// Open loads the index of root and stores for this user. It never fails:
// an index that cannot be found, trusted or decoded is simply empty, and
// one whose directory cannot be used is not saved.
func Open(root string, stores []string, o Options) *Index {
	return open(root, stores, o, ".idx")
}

// open is [Open] of the index file whose name ends in suffix.
func open(root string, stores []string, o Options, suffix string) *Index {
	ix := &Index{stores: append([]string(nil), stores...), opts: o, judge: cachefile.Judge{Observed: cachefile.Observe()}}
	abs, ok := cachefile.ResolveRoot(root)
	if !ok {
		return ix
	}
	ix.root = abs
	ix.judge.Fine = cachefile.FineDev(abs)
	dir := o.Dir
	if dir == "" || cachefile.Inside(dir, abs) {
		return ix
	}
	key := sha256.Sum256([]byte(abs + "\x00" + strings.Join(stores, "\x00")))
	ix.path = filepath.Join(dir, hex.EncodeToString(key[:16])+suffix)
	if suffix == searchSuffix {
		ix.srch = &searchState{}
	}
	ix.load()
	return ix
}

func (ix *Index) load() {
	dfi, err := os.Lstat(filepath.Dir(ix.path))
	if err != nil || !cachefile.Trusted(dfi, true) {
		return
	}
	f, err := os.OpenFile(ix.path, os.O_RDONLY|cachefile.OpenFlags, 0)
	if err != nil {
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !cachefile.Trusted(fi, false) {
		return
	}
	if fi.Size() > cachefile.MaxSize {
		return
	}
	// A large index is mapped, not read: reading 15 MB (100,000 records)
	// into new memory costs a warm query about 9 ms, mapping it about 1.
	var b []byte
	unmap := func() {}
	if fi.Size() >= mapFrom {
		b, unmap, err = cachefile.MapFile(f, fi.Size())
	} else {
		b, err = cachefile.ReadFile(f, fi.Size())
	}
	if err != nil {
		return
	}
	header := magic + " " + itoa(Version) + "\n"
	if len(b) < len(header) || string(b[:len(header)]) != header {
		unmap()
		return
	}
	x, err := decode(b[len(header):])
	if err != nil || x.root != ix.root || !slices.Equal(x.stores, ix.stores) || !ix.takeTail(x) {
		unmap()
		return
	}
	ix.old, ix.oldDirs, ix.unmap = x.entries, x.dirs, unmap
}

// mapFrom is the size from which the index file is mapped rather than
// read (a variable for tests).
var mapFrom int64 = 1 << 20

// Close releases the loaded index file (a large one is mapped). The
// records a query returned share its bytes: they, and ix, must not be used
// after. Close of a nil *Index does nothing.
func (ix *Index) Close() {
	if ix == nil || ix.unmap == nil {
		return
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.old, ix.oldDirs = nil, nil // what pointed into the file
	if ix.srch != nil {
		ix.srch.inv = nil
	}
	ix.unmap()
	ix.unmap = nil
}

func itoa(n int) string {
	b := []byte{}
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
		if n == 0 {
			return string(b)
		}
	}
}

// Start implements [corpus.MetaCache]: it pairs each corpus path with its
// loaded entry (both lists are in path order).
func (ix *Index) Start(paths []string) {
	ix.paths, ix.next, ix.few = paths, nil, map[int]entry{}
	if len(ix.old) == 0 {
		ix.next = make([]entry, len(paths))
	}
	ix.pos = make([]int32, len(paths))
	j := 0
	for i, p := range paths {
		for j < len(ix.old) && ix.old[j].path < p {
			j++
		}
		ix.pos[i] = -1
		if j < len(ix.old) && ix.old[j].path == p {
			ix.pos[i] = int32(j)
		}
	}
}

// Lookup implements [corpus.MetaCache]. It only reads the loaded index,
// so the query's workers never wait on each other.
func (ix *Index) Lookup(i int, st corpus.FileStat) (string, bool) {
	j := ix.pos[i]
	if j < 0 {
		return "", false
	}
	old, meta, ok := ix.old[j].decode()
	if !ok || old != cachefile.View(st) {
		return "", false
	}
	return meta, true
}

// Known implements [corpus.MetaCache].
func (ix *Index) Known(i int) bool { return ix.pos[i] >= 0 }

// Put implements [corpus.MetaCache].
func (ix *Index) Put(i int, path string, st corpus.FileStat, meta []byte) {
	e := entry{St: cachefile.View(st), meta: meta}
	if ix.next != nil {
		ix.next[i] = e
		return
	}
	ix.mu.Lock()
	ix.few[i] = e
	ix.mu.Unlock()
}

// Listing implements [corpus.DirCache].
func (ix *Index) Listing(dir string, st corpus.FileStat) (subdirs, files []string, ok bool) {
	l, ok := ix.oldDirs[dir]
	if !ok || l.St != cachefile.View(st) {
		return nil, nil, false
	}
	ix.dirMu.Lock()
	ix.usedDirs[dir] = true
	ix.dirMu.Unlock()
	return l.subdirs, l.files, true
}

// PutListing implements [corpus.DirCache].
func (ix *Index) PutListing(dir string, st corpus.FileStat, subdirs, files []string) {
	ix.dirMu.Lock()
	ix.newDirs[dir] = listing{St: ix.judge.Stored(cachefile.View(st)), subdirs: subdirs, files: files}
	ix.dirMu.Unlock()
}

// Corpus opens the corpus of root and stores (see [corpus.Open]), taking
// each directory's listing from the index when the directory's stat is
// the one stored (see [corpus.DirCache]).
func (ix *Index) Corpus(root string, stores []string) (*corpus.Corpus, error) {
	if ix == nil {
		return corpus.Open(root, stores)
	}
	ix.walked, ix.newDirs, ix.usedDirs = true, map[string]listing{}, map[string]bool{}
	return corpus.OpenCached(root, stores, ix)
}

// reread is what the query read again of the i-th corpus path (meta nil:
// nothing); only once the query's workers are done.
func (ix *Index) reread(i int) entry {
	if i < len(ix.next) {
		return ix.next[i]
	}
	return ix.few[i]
}

// dirs is the directory listings to save, and whether they differ from
// the loaded ones: when the corpus was listed through the index, those
// listed again and the loaded ones used; else the loaded ones.
func (ix *Index) dirs() (map[string]listing, bool) {
	if !ix.walked {
		return ix.oldDirs, false
	}
	changed := len(ix.newDirs) > 0 || len(ix.usedDirs) != len(ix.oldDirs)
	out := make(map[string]listing, len(ix.newDirs)+len(ix.usedDirs))
	for d := range ix.usedDirs {
		out[d] = ix.oldDirs[d]
	}
	for d, l := range ix.newDirs {
		out[d] = l
	}
	return out, changed
}

// Save writes the index back for the corpus paths the query listed (those
// given to Start), when something changed: each path's new entry, else its
// loaded one (paths no longer listed are dropped), and the directory
// listings. Errors are returned for tests; callers ignore them (the index
// is a cache).
func (ix *Index) Save(paths []string) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.path == "" {
		return nil
	}
	if len(ix.pos) != len(paths) { // Start was not called: nothing listed
		ix.pos = make([]int32, len(paths))
		for i := range ix.pos {
			ix.pos[i] = -1
		}
	}
	dirs, changed := ix.dirs()
	// Whether the entries to keep are other than the loaded ones: an entry
	// read again, or a loaded one no longer listed.
	changed = changed || len(ix.few) > 0
	if !changed { // whether every loaded entry and only those are kept
		n := 0
		for i, p := range paths {
			if ix.reread(i).meta != nil {
				changed = true
				break
			}
			if i > 0 && p == paths[i-1] {
				continue
			}
			if ix.pos[i] < 0 {
				changed = true // not stat-able now: left out
				break
			}
			n++
		}
		if !changed && n == len(ix.old) {
			return nil
		}
	}
	// The positions of the distinct paths that have an entry, in path
	// order (a corpus lists them in byte order).
	keep := make([]int32, 0, len(paths))
	for i, p := range paths {
		if i > 0 && p == paths[i-1] {
			continue
		}
		if ix.reread(i).meta == nil && ix.pos[i] < 0 {
			continue // not stat-able now: left out
		}
		keep = append(keep, int32(i))
	}
	if !slices.IsSortedFunc(keep, func(a, b int32) int { return strings.Compare(paths[a], paths[b]) }) {
		slices.SortFunc(keep, func(a, b int32) int { return strings.Compare(paths[a], paths[b]) })
	}
	dir := filepath.Dir(ix.path)
	if err := cachefile.PrepareDir(dir); err != nil {
		return err
	}
	_, err := os.Lstat(ix.path)
	isNew := err != nil // a root new to the cache: it may grow past its cap
	defer func() { cachefile.Evict(dir, ix.path, isNew) }()
	return cachefile.WriteAtomic(dir, ix.path, func(w io.Writer) error {
		err := encodeTo(w, ix.root, ix.stores, ix.judge.Observed, len(keep), func(b []byte, k int) []byte {
			i := int(keep[k])
			if e := ix.reread(i); e.meta != nil {
				return appendEntry(b, paths[i], ix.judge.Stored(e.St), e.meta)
			}
			b = appendStr(b, paths[i]) // a loaded entry as it was
			return append(binary.AppendUvarint(b, uint64(len(ix.old[ix.pos[i]].rec))), ix.old[ix.pos[i]].rec...)
		}, dirs)
		if err == nil && ix.srch != nil {
			err = ix.writeInverted(w, paths, keep)
		}
		return err
	})
}

// Query runs q over c through the index of c's root and stores, unless
// o turns the index off, and saves the index afterwards.
func Query(c *corpus.Corpus, q corpus.Query, o Options) ([]corpus.Record, error) {
	return ForQuery(c.Root, c.Stores, o).Query(c, q)
}

// Query runs q over c (listed by [Index.Corpus], or by corpus.Open or
// OpenIdentified of the same root and stores) through ix, and saves ix
// afterwards; a nil ix reads every file.
func (ix *Index) Query(c *corpus.Corpus, q corpus.Query) ([]corpus.Record, error) {
	if ix == nil {
		return c.Query(q)
	}
	res, err := c.QueryCached(q, ix)
	if err == nil {
		ix.finish(c)
	}
	return res, err
}

// finish tells the writers' index about the files the query read again,
// then saves the query index; compared is how many of the writers' records
// were looked at (for tests). The writers' index comes first: were it not
// saved, a query index saved now would trust those files, and the writers'
// index would not be told about them again.
func (ix *Index) finish(c *corpus.Corpus) (compared int) {
	var err error
	if ix.anyReread() { // else the writers' index is not even opened
		reconciles.Add(1)
		compared, err = writerindex.Reconcile(c.Root, ix.opts, ix.rereadStats)
	}
	if err == nil {
		ix.Save(c.Paths())
	}
	return compared
}

// reconciles counts the queries that asked the writers' index to
// reconcile (for tests).
var reconciles atomic.Int64

// anyReread reports whether this query read any file again.
func (ix *Index) anyReread() bool {
	return len(ix.few) > 0 || slices.ContainsFunc(ix.next, func(e entry) bool { return e.meta != nil })
}

// rereadStats is, by path, the stat of each file this query read again
// (its stat differed from the stored one, or it had none).
func (ix *Index) rereadStats() map[string]corpus.FileStat {
	out := make(map[string]corpus.FileStat, len(ix.few))
	for i := range ix.next {
		if e := &ix.next[i]; e.meta != nil {
			out[ix.paths[i]] = e.St
		}
	}
	for i, e := range ix.few {
		out[ix.paths[i]] = e.St
	}
	return out
}
