package writerindex

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/procedures-go/procedures/internal/cachefile"
	"github.com/procedures-go/procedures/internal/corpus"
	"github.com/procedures-go/procedures/internal/lint"
)

// Options is the index's setting, as the command read it.
type Options = cachefile.Options

const (
	writersMagic   = cachefile.WritersMagic
	writersVersion = 3
)

// wfile is one lintable record of a directory.
type wfile struct {
	name string
	st   corpus.FileStat
	id   string // the lint's id; "" for none
	seen bool   // read or validated in this run
}

// wsub is one subdirectory the lint walks, with its inode when listed.
type wsub struct {
	name string
	ino  uint64
}

// dirStat is a directory's identity and times.
type dirStat struct {
	Dev, Ino         uint64
	MtimeNs, CtimeNs int64
}

// wdir is one directory of the walk: a store (absent when it does not
// exist or is not a directory) or a directory below one.
type wdir struct {
	path   string // root-relative, ending in "/"
	absent bool
	st     dirStat
	subs   []wsub  // by name
	files  []wfile // by name; nil while raw holds them
	fresh  bool    // listed in this run
	// trusted: listed in this run at a stat a saved index would trust
	// (not racy) and not written to since, or its own write accounted for.
	trusted bool
	// seen is the stat this run observed (as taken, never smudged; zero
	// when not stat-ed); pre, the one a writer saw just before its own
	// write, when still seen (see Writing); owned, how many own writes in
	// a row its listing accounts for since it was last listed (see account).
	seen, pre dirStat
	owned     uint8

	// raw is the directory's block of records as loaded, decoded only when
	// the directory is listed again or written to: a writer that consults
	// a few records scans it and keeps what it read again in patch.
	raw   []byte
	nraw  int
	patch map[int]wfile
}

// Index is the writers' index of one corpus, validated as far as a writer
// needs it; see the package doc for the rules.
type Index struct {
	root    string          // resolved
	path    string          // the index file
	judge   cachefile.Judge // when this run began observing, and what is never racy
	dirs    map[string]*wdir
	changed bool // the walk or an id changed: Save writes
	// pending counts the records a next run would read again were the
	// index not written: those read again with the same id (only their
	// stat is new) and those new in a directory whose listing a saved
	// index would not trust anyway (see Save).
	pending int
	buf     []byte
	unmap   func() // releases the loaded file's mapping; nil when none
	// loaded is the stat of the index file as this run found it (zero:
	// none): Save replaces only that file (see Save).
	loaded corpus.FileStat
}

// errRaced is Save's error when another run replaced the index file since
// this one loaded it.
var errRaced = errors.New("index: the writers' index was replaced by another run")

// maxPending is how many records a next run may have to read again before
// Save writes the index.
const maxPending = 16

var errWalk = errors.New("index: the walk failed")

// writersFile names the writers' index file of root in dir.
func writersFile(dir, root string) string {
	key := sha256.Sum256([]byte(root + "\x00writers\x00" + strings.Join(corpus.Stores(), "\x00")))
	return filepath.Join(dir, hex.EncodeToString(key[:16])+".wdx")
}

// Open returns the writers' index of the corpus under root, loaded
// and its directories validated, or built by walking the record stores
// when there is none usable (missing, corrupt, of another version or
// root). It returns nil when no index can be used: PROCEDURES_NO_INDEX set,
// no cache directory, one inside the corpus or not trusted, a platform
// without the stat fields, or a directory that could not be listed; the
// writer then reads the corpus as without an index.
func Open(root string, o Options) *Index {
	if o.Off || !haveWriters {
		return nil
	}
	w := openWriters(root, o)
	if w == nil {
		return nil
	}
	if w.dirs == nil {
		if w.build() != nil {
			return nil
		}
	} else if w.validateDirs() != nil {
		w.Release()
		return nil
	}
	return w
}

// openWriters finds and loads the index file; dirs is nil when there is
// none to load. nil when no index may be kept.
func openWriters(root string, o Options) *Index {
	abs, ok := cachefile.ResolveRoot(root)
	if !ok {
		return nil
	}
	dir := o.Dir
	if dir == "" || cachefile.Inside(dir, abs) {
		return nil
	}
	if fi, err := os.Lstat(dir); err == nil && !cachefile.Trusted(fi, true) {
		return nil
	}
	w := &Index{root: abs, path: writersFile(dir, abs), buf: make([]byte, 0, 16<<10), judge: cachefile.NewJudge(abs)}
	w.load()
	return w
}

func (w *Index) load() {
	w.loaded, _ = lstatFile(w.path) // before the open: a file replaced since is not ours
	f, err := os.OpenFile(w.path, os.O_RDONLY|cachefile.OpenFlags, 0)
	if err != nil {
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !cachefile.Trusted(fi, false) || fi.Size() > cachefile.MaxSize {
		return
	}
	b, unmap, err := cachefile.MapFile(f, fi.Size())
	if err != nil {
		return
	}
	dirs, err := decodeWriters(b, w.root)
	if err != nil {
		unmap()
		return
	}
	w.unmap = unmap
	w.dirs = dirs
}

// build walks every record store afresh.
func (w *Index) build() error {
	w.dirs = map[string]*wdir{}
	w.changed = true
	for _, s := range corpus.Stores() {
		if err := w.walkStore(s + "/"); err != nil {
			return err
		}
	}
	return nil
}

// relevantDir reports whether the lint checks records below the
// root-relative directory p (ending in "/").
func relevantDir(p string) bool {
	return !strings.Contains(p, "_archived") && lint.IsLintableRecord(p+"x.md")
}

// lintedFile reports whether the walk lists name in directory p and the
// lint checks it.
func lintedFile(p, name string) bool {
	return strings.HasSuffix(name, ".md") && name != "INDEX.md" &&
		!strings.Contains(name, "_archived") && lint.IsLintableRecord(p+name)
}

func (w *Index) abs(rel string) string { return w.root + "/" + rel }

// dropTree forgets directory p and everything recorded below it.
func (w *Index) dropTree(p string) {
	for q := range w.dirs {
		if strings.HasPrefix(q, p) {
			delete(w.dirs, q)
		}
	}
	w.changed = true
}

// walkStore records store directory p (ending in "/") afresh: absent, or
// listed whole.
func (w *Index) walkStore(p string) error {
	w.dropTree(p)
	if _, ok := statDir(w.abs(strings.TrimSuffix(p, "/")), true); !ok {
		w.dirs[p] = &wdir{path: p, absent: true, fresh: true}
		return nil
	}
	return w.walk(p, true)
}

// walk lists directory p afresh and everything below it.
func (w *Index) walk(p string, follow bool) error {
	d := &wdir{path: p, fresh: true}
	ents, st, err := listDir(w.abs(strings.TrimSuffix(p, "/")), follow)
	if err != nil {
		return errWalk
	}
	d.st, d.seen = storedDir(w.judge, st), st
	w.dirs[p] = d
	w.changed = true
	sortDents(ents)
	for _, e := range ents {
		switch {
		case e.dir:
			if sp := p + string(e.name) + "/"; relevantDir(sp) {
				d.subs = append(d.subs, wsub{string(e.name), e.ino})
				if err := w.walk(sp, false); err != nil {
					return err
				}
			}
		case e.reg:
			if name := string(e.name); lintedFile(p, name) {
				d.files = append(d.files, w.readFile(p, name))
			}
		}
	}
	return nil
}

// readFile stats (before reading) and reads one record of directory p.
func (w *Index) readFile(p, name string) wfile {
	f := wfile{name: name, seen: true}
	full := w.abs(p + name)
	st, ok := lstatFile(full)
	if !ok {
		return f // no stat: never trusted, read again when consulted
	}
	id, buf, err := lint.ReadLintID(full, w.buf)
	w.buf = buf
	if err != nil {
		return f
	}
	f.st, f.id = w.judge.Stored(st), id
	return f
}

// reread reads f of directory p again, noting whether its id changed.
func (w *Index) reread(p string, f *wfile) {
	old := f.id
	*f = w.readFile(p, f.name)
	if f.id != old || f.st == (corpus.FileStat{}) {
		w.changed = true
	} else {
		w.pending++
	}
}

// validateDirs re-lists every directory whose stat changed.
func (w *Index) validateDirs() error {
	paths := make([]string, 0, len(w.dirs))
	for p := range w.dirs {
		paths = append(paths, p)
	}
	slices.Sort(paths) // a parent before its subdirectories
	stores := map[string]bool{}
	for _, s := range corpus.Stores() {
		stores[s+"/"] = true
		if _, ok := w.dirs[s+"/"]; !ok { // an index of another store list
			if err := w.walkStore(s + "/"); err != nil {
				return err
			}
		}
	}
	for _, p := range paths {
		d, ok := w.dirs[p]
		if !ok || d.fresh {
			continue // dropped or walked afresh by its parent
		}
		follow := stores[p]
		st, ok := statDir(w.abs(strings.TrimSuffix(p, "/")), follow)
		switch {
		case !ok && d.absent:
			continue
		case !ok || d.absent || st.Dev != d.st.Dev || st.Ino != d.st.Ino:
			// Gone, appeared, or another directory now: afresh.
			if follow {
				if err := w.walkStore(p); err != nil {
					return err
				}
			} else if !ok {
				w.dropTree(p)
			} else {
				w.dropTree(p)
				if err := w.walk(p, false); err != nil {
					return err
				}
			}
		case st != d.st:
			if err := w.relist(d, follow); err != nil {
				return err
			}
		default:
			d.seen = st
		}
	}
	return nil
}

// relist lists d again: names gone are dropped, new names (and names now
// of another inode) are read or walked, the others kept.
func (w *Index) relist(d *wdir, follow bool) error {
	ents, st, err := listDir(w.abs(strings.TrimSuffix(d.path, "/")), follow)
	if err != nil {
		return errWalk
	}
	if st.Dev != d.st.Dev || st.Ino != d.st.Ino {
		return errWalk // replaced between the stat and the open: a full scan decides
	}
	// A racy listing is stored smudged (listed again by the next run
	// whatever is saved); one that is not is worth saving, changed or not.
	d.st, d.fresh, d.trusted, d.seen, d.owned = storedDir(w.judge, st), true, !racyDir(w.judge, st), st, 0

	rec := recordedOf(d)
	var added []wfile
	oldSubs := map[string]uint64{}
	for _, sd := range d.subs {
		oldSubs[sd.name] = sd.ino
	}
	d.subs = d.subs[:0:0]
	for _, e := range ents {
		switch {
		case e.dir:
			name := string(e.name)
			sp := d.path + name + "/"
			if !relevantDir(sp) {
				continue
			}
			d.subs = append(d.subs, wsub{name, e.ino})
			ino, had := oldSubs[name]
			delete(oldSubs, name)
			if had && ino == e.ino {
				if _, ok := w.dirs[sp]; ok {
					continue // validated on its own
				}
			}
			w.dropTree(sp)
			if err := w.walk(sp, false); err != nil {
				return err
			}
		case e.reg:
			if !lintedName(e.name) {
				continue
			}
			if !rec.take(e.ino, e.name) {
				added = append(added, w.readFile(d.path, string(e.name)))
			}
		}
	}
	for name := range oldSubs {
		w.dropTree(d.path + name + "/")
	}
	slices.SortFunc(d.subs, func(a, b wsub) int { return strings.Compare(a.name, b.name) })
	keep, kept, n := rec.keep, rec.kept, len(rec.keep)
	if len(added) == 0 && kept == n {
		return nil // the same records
	}
	w.pending += len(added)
	slices.SortFunc(added, func(a, b wfile) int { return strings.Compare(a.name, b.name) })
	if d.raw != nil {
		mergeRaw(d, keep, added)
		return nil
	}
	old := d.files
	files := make([]wfile, 0, kept+len(added))
	for i, f := range old {
		if keep[i] {
			files = append(files, f)
		}
	}
	files = append(files, added...)
	slices.SortFunc(files, func(a, b wfile) int { return strings.Compare(a.name, b.name) })
	d.files = files
	return nil
}

// recorded finds a directory's records as recorded by inode and name (a
// listed name is the recorded one when its inode and its name match),
// without decoding a raw block: it is decoded only when a name is new,
// gone or of another inode.
type recorded struct {
	first map[uint64]int32 // for each inode, 1 + the first record of it
	next  []int32          // 1 + the following record of the same inode (hard links share one)
	name  func(i int32) []byte
	keep  []bool // the records taken: still listed
	kept  int
}

// recordedOf is the records of d as recorded.
func recordedOf(d *wdir) *recorded {
	n := len(d.files)
	if d.raw != nil {
		n = d.nraw
	}
	r := &recorded{first: make(map[uint64]int32, n), next: make([]int32, n), keep: make([]bool, n)}
	link := func(i int, ino uint64) {
		r.next[i] = r.first[ino]
		r.first[ino] = int32(i) + 1
	}
	if d.raw == nil {
		for i, f := range d.files {
			link(i, f.st.Ino)
		}
		r.name = func(i int32) []byte { return []byte(d.files[i].name) }
		return r
	}
	offs := make([]int32, 0, d.nraw)
	for i, off := 0, 0; off < len(d.raw); i++ {
		end, _, _ := rawAt(d.raw, off)
		ino := binary.LittleEndian.Uint64(d.raw[off+30:])
		if f, ok := d.patch[i]; ok {
			ino = f.st.Ino
		}
		link(i, ino)
		offs = append(offs, int32(off))
		off = end
	}
	r.name = func(i int32) []byte {
		_, nm, id := rawAt(d.raw, int(offs[i]))
		return d.raw[nm:id]
	}
	return r
}

// take marks the record of inode ino named name, not yet taken, as still
// listed, and reports whether there was one.
func (r *recorded) take(ino uint64, name []byte) bool {
	for i := r.first[ino] - 1; i >= 0; i = r.next[i] - 1 {
		if !r.keep[i] && bytes.Equal(r.name(i), name) {
			r.keep[i] = true
			r.kept++
			return true
		}
	}
	return false
}

// lintedName reports whether the walk lists, and the lint checks, a file
// of this name in a directory whose records the lint checks (see
// [relevantDir]): no pattern the lint excludes can start in the directory
// and end in the name, which holds no "/".
func lintedName(name []byte) bool {
	return bytes.HasSuffix(name, []byte(".md")) && string(name) != "INDEX.md" &&
		!bytes.Contains(name, []byte("_archived"))
}

// Save writes the index back, under the cache directory's lock and only
// over the file this run loaded (else errRaced), when that saves a next
// run work: when the walk or an id changed, when a directory was listed
// again at a stat that is not racy (or its own write was accounted for,
// see account), or when maxPending records would otherwise be read again.
// A directory listed again at a racy stat, or written to by this run
// without its write accounted for, is listed again by the next run in any
// case: writing its listing would save only the reading of its new
// records. Not writing is always safe: every entry is validated by its
// stat. Errors are for tests; callers ignore them (the index is a cache).
func (w *Index) Save() error {
	if !w.changed && w.pending < maxPending && !w.anyTrusted() {
		return nil
	}
	dir := filepath.Dir(w.path)
	if err := cachefile.PrepareDir(dir); err != nil {
		return err
	}
	unlock, err := lockDir(dir)
	if err != nil {
		return err
	}
	defer unlock()
	cur, _ := lstatFile(w.path)
	if cur != w.loaded {
		// Another run saved what it learned since this one loaded: writing
		// now would lose it (a query's reconcile, for one). Not writing is
		// safe; a query then does not save its own index either.
		return errRaced
	}
	isNew := cur == (corpus.FileStat{}) // a root new to the cache: it may grow past its cap
	defer func() { cachefile.Evict(dir, w.path, isNew) }()
	if err := cachefile.WriteAtomic(dir, w.path, func(f io.Writer) error {
		_, err := f.Write(encodeWriters(w.root, w.judge.Observed, w.dirs))
		return err
	}); err != nil {
		return err
	}
	w.loaded, _ = lstatFile(w.path)
	w.changed, w.pending = false, 0
	for _, d := range w.dirs {
		d.trusted = false
	}
	return nil
}

// Close saves the index as Save does and releases the loaded file: w must
// not be used after.
func (w *Index) Close() error {
	err := w.Save()
	w.Release()
	return err
}

// Release releases the loaded file without saving: w must not be used
// after.
func (w *Index) Release() {
	if w.unmap != nil {
		w.dirs = nil // what pointed into the mapping
		w.unmap()
		w.unmap = nil
	}
}

// anyTrusted reports whether a directory was listed again at a stat a
// written index would trust.
func (w *Index) anyTrusted() bool {
	for _, d := range w.dirs {
		if d.trusted {
			return true
		}
	}
	return false
}

func sortDents(d []dent) {
	slices.SortFunc(d, func(a, b dent) int { return bytes.Compare(a.name, b.name) })
}
