package corpus

import (
	"errors"
	"io"
	"iter"
	"os"
	"sync"

	"github.com/procedures-go/procedures/internal/frontmatter"
)

// A Corpus is the set of record files under a root: what one scan of the
// stores returned. Queries, dumps and membership all use this one listing.
// Its methods may be called from several goroutines.
type Corpus struct {
	Root    string   // the root as configured (not cleaned)
	Stores  []string // the stores scanned, in order
	Skipped []error  // directories that could not be read (see [Enumerate])

	entries    []entry
	identified bool // OpenIdentified: each entry's id was recorded by the scan
	once       sync.Once
	members    map[string]int // path -> index of its first entry
}

// Open enumerates the corpus under root. stores nil means the default store
// list, [DefaultStores] (the record stores, then the vendor stores); a non-nil
// empty list scans nothing. It fails with a *NoRootError when root cannot be
// entered; stores that do not exist are simply empty.
func Open(root string, stores []string) (*Corpus, error) {
	if err := CheckRootSearchable(root); err != nil {
		return nil, err
	}
	if stores == nil {
		stores = DefaultStores()
	}
	c := &Corpus{Root: root, Stores: append([]string(nil), stores...)}
	c.entries, c.Skipped = enumerate(root, stores, false)
	return c, nil
}

// OpenCached is [Open] that takes each directory's listing from dc when dc
// holds it for the directory's present stat, and hands dc every listing it
// reads again (see [DirCache]); the corpus is the one Open would list. A
// nil dc, or a platform without the stat fields, is Open.
func OpenCached(root string, stores []string, dc DirCache) (*Corpus, error) {
	if err := CheckRootSearchable(root); err != nil {
		return nil, err
	}
	if stores == nil {
		stores = DefaultStores()
	}
	c := &Corpus{Root: root, Stores: append([]string(nil), stores...)}
	var stale bool
	c.entries, c.Skipped, stale = enumerateWith(root, stores, false, dc)
	if stale { // a listing did not match the tree: list every directory again
		c.entries, c.Skipped, _ = enumerateWith(root, stores, false, relist{dc})
	}
	return c, nil
}

// relist is a DirCache that trusts no listing but keeps what is listed.
type relist struct{ DirCache }

func (relist) Listing(string, FileStat) ([]string, []string, bool) { return nil, nil, false }

// OpenIdentified is [Open] that also records, during the scan, which file
// each listed path is (an lstat each: device and inode), so that
// [Corpus.ReadFile] (hence [Corpus.Cat]) refuses a path replaced since by
// another file ([ErrChanged]). It costs one lstat per corpus file, so
// only the readers that dump records (query-records --cat and --full) use
// it; with [Open], ReadFile still never follows a symlink swapped in.
func OpenIdentified(root string, stores []string) (*Corpus, error) {
	if err := CheckRootSearchable(root); err != nil {
		return nil, err
	}
	if stores == nil {
		stores = DefaultStores()
	}
	c := &Corpus{Root: root, Stores: append([]string(nil), stores...), identified: true}
	c.entries, c.Skipped = enumerate(root, stores, true)
	return c, nil
}

// CheckRootSearchable checks what `cd root` would: that root is a directory
// that may be searched. It returns a *NoRootError otherwise.
func CheckRootSearchable(root string) error {
	if err := enterable(root); err != nil {
		return &NoRootError{Root: root, Err: err}
	}
	return nil
}

func enterable(root string) error {
	fi, err := os.Stat(root)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return errors.New("not a directory")
	}
	_, err = os.Stat(joinRoot(root, "."))
	return err
}

// Paths returns the corpus paths in byte order, duplicates kept.
func (c *Corpus) Paths() []string {
	out := make([]string, len(c.entries))
	for i, e := range c.entries {
		out[i] = e.path
	}
	return out
}

// Len is the number of corpus files (duplicates counted).
func (c *Corpus) Len() int { return len(c.entries) }

// ReadFile reads a corpus member, refusing any path the scan did not list.
// It opens the file below its store directory without leaving it and
// without following a symlink in its last component, and, for a corpus
// from [OpenIdentified], reads it only if it is the file the scan listed
// (same device and inode; else [ErrChanged]), so a path swapped after the
// scan for a symlink or for another file of the store is never dumped;
// it never waits on a FIFO swapped in (the open does not block, and only a
// regular file is read: else [ErrNotRegular]); and it refuses a file above
// [MaxDump] bytes with a *TooLargeError, reading none of it.
func (c *Corpus) ReadFile(path string) ([]byte, error) {
	i, ok := c.index(path)
	if !ok {
		return nil, &os.PathError{Op: "read", Path: path, Err: os.ErrNotExist}
	}
	e := c.entries[i]
	r, err := os.OpenRoot(joinRoot(c.Root, c.Stores[e.store]))
	if err != nil {
		return nil, err
	}
	defer r.Close()
	f, err := openNoFollow(r, e.rel())
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &os.PathError{Op: "read", Path: path, Err: ErrNotRegular}
	}
	if c.identified && (e.id == nil || !os.SameFile(e.id, fi)) {
		return nil, &os.PathError{Op: "read", Path: path, Err: ErrChanged}
	}
	if fi.Size() > MaxDump {
		return nil, &TooLargeError{Path: path, Size: fi.Size()}
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxDump+1))
	if err == nil && len(b) > MaxDump { // grew since the fstat
		return nil, &TooLargeError{Path: path, Size: int64(len(b))}
	}
	return b, err
}

func (c *Corpus) index(path string) (int, bool) {
	c.once.Do(func() {
		c.members = make(map[string]int, len(c.entries))
		for i := len(c.entries) - 1; i >= 0; i-- {
			c.members[c.entries[i].path] = i
		}
	})
	i, ok := c.members[path]
	return i, ok
}

// scanAll reads every corpus file once, in parallel, as far as queries
// need (see [readHead]: at most MaxFrontmatter bytes), and hands each
// one's content to visit(i, content, capped, worker); capped reports a head
// cut at MaxFrontmatter before it decided every field. visit runs on the
// worker's goroutine; content is only valid during the call. The first read
// error in corpus order is returned as a *ScanError.
func (c *Corpus) scanAll(newWorker func() any, visit func(i int, content []byte, capped bool, w any)) error {
	return c.scanUpTo(haveHead, newWorker, visit)
}

// scanUpTo is [Corpus.scanAll] reading each file until done(prefix) says
// enough (or MaxFrontmatter bytes).
func (c *Corpus) scanUpTo(done func([]byte) bool, newWorker func() any, visit func(i int, content []byte, capped bool, w any)) error {
	n := len(c.entries)
	errs := make([]error, n)
	inParallel(n, func(indexes iter.Seq[int]) {
		w := newWorker()
		buf := make([]byte, 0, 16<<10)
		sr := newStatter(c.Root) // each file opened relative to its directory
		defer sr.close()
		for i := range indexes {
			var err error
			var capped bool
			buf, capped, err = sr.readHead(c.entries[i].path, buf[:0], done)
			if err != nil {
				errs[i] = err
				continue
			}
			visit(i, buf, capped, w)
		}
	})
	for i, err := range errs {
		if err != nil {
			return &ScanError{Path: c.entries[i].path, Err: err}
		}
	}
	return nil
}

// haveHead reports whether a file prefix already decides every query
// field: the frontmatter is closed and a complete non-blank body line
// follows (or there is no frontmatter and such a line starts the file).
// CRLF line ends count as LF.
func haveHead(b []byte) bool {
	last := len(b) - 1
	for last >= 0 && b[last] != '\n' {
		last--
	}
	b = normalizeCRLF(nil, b[:last+1]) // only complete lines decide
	present, terminated, _, body := frontmatter.SplitFences(b)
	if present && !terminated {
		return false
	}
	for len(body) > 0 {
		i := indexLF(body)
		if i < 0 {
			return false
		}
		if len(frontmatter.TrimLeftSpace(body[:i])) > 0 {
			return true
		}
		body = body[i+1:]
	}
	return false
}

func indexLF(b []byte) int {
	for i, c := range b {
		if c == '\n' {
			return i
		}
	}
	return -1
}
