package index

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
	"sync/atomic"

	"github.com/procedures-go/procedures/internal/corpus"
	"github.com/procedures-go/procedures/internal/lint"
)

// The writers' index serves enforce-frontmatter and log-record, which ask
// the corpus only "which records declare this id?" for a handful of ids.
// It is a second file next to the query index, <hash>.wdx, keyed by the
// resolved root and the ten record stores, holding for every directory the
// lint walks its stat and its subdirectories, and for every record the lint
// checks its stat and the id the lint maps it under. A writer validates
// only what it consults:
//
//   - every recorded directory is stat-ed; one whose stat differs from the
//     stored one (a racy stat is stored smudged, see racy.go), is listed again, and
//     of its names only the new ones and those now naming another inode are
//     stat-ed and read (a directory that is another directory now, or a
//     new subdirectory, is walked whole);
//   - every record whose recorded id is one the writer asks about is
//     stat-ed, and read again when its stat differs from the stored one.
//
// A record edited in place (same name, same inode) to declare an id it did
// not declare is therefore not seen by a writer asking about that id until
// a query (which stats every file) or a writer consulting it reads it
// again: query-records re-reads, in the writers' index, every record whose
// stat it found changed.

const (
	writersMagic   = "procedures-writers"
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

// Writers is the writers' index of one corpus, validated as far as a
// writer needs it; see the package's writers.go for the rules.
type Writers struct {
	root    string // resolved
	path    string // the index file
	judge   judge  // when this run began observing, and what is never racy: see racy.go
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

// resolveRoot is root absolute and symlink-free, as the index keys it.
func resolveRoot(root string) (string, bool) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", false
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	return abs, true
}

// OpenWriters returns the writers' index of the corpus under root, loaded
// and its directories validated, or built by walking the record stores
// when there is none usable (missing, corrupt, of another version or
// root). It returns nil when no index can be used: PROCEDURES_NO_INDEX set,
// no cache directory, one inside the corpus or not trusted, a platform
// without the stat fields, or a directory that could not be listed; the
// writer then reads the corpus as without an index.
func OpenWriters(root string, o Options) *Writers {
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
		w.release()
		return nil
	}
	return w
}

// writersOpened counts openWriters calls (for tests).
var writersOpened atomic.Int64

// openWriters finds and loads the index file; dirs is nil when there is
// none to load. nil when no index may be kept.
func openWriters(root string, o Options) *Writers {
	writersOpened.Add(1)
	abs, ok := resolveRoot(root)
	if !ok {
		return nil
	}
	dir := o.Dir
	if dir == "" || inside(dir, abs) {
		return nil
	}
	if fi, err := os.Lstat(dir); err == nil && !trusted(fi, true) {
		return nil
	}
	w := &Writers{root: abs, path: writersFile(dir, abs), buf: make([]byte, 0, 16<<10), judge: judge{observed: observe(), fine: fineDev(abs)}}
	w.load()
	return w
}

func (w *Writers) load() {
	w.loaded, _ = lstatFile(w.path) // before the open: a file replaced since is not ours
	f, err := os.OpenFile(w.path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !trusted(fi, false) || fi.Size() > maxSize {
		return
	}
	b, unmap, err := mapFile(f, fi.Size())
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

// readFile reads the size bytes of f.
func readFile(f *os.File, size int64) ([]byte, error) {
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, err
	}
	return b, nil
}

// build walks every record store afresh.
func (w *Writers) build() error {
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

func (w *Writers) abs(rel string) string { return w.root + "/" + rel }

// dropTree forgets directory p and everything recorded below it.
func (w *Writers) dropTree(p string) {
	for q := range w.dirs {
		if strings.HasPrefix(q, p) {
			delete(w.dirs, q)
		}
	}
	w.changed = true
}

// walkStore records store directory p (ending in "/") afresh: absent, or
// listed whole.
func (w *Writers) walkStore(p string) error {
	w.dropTree(p)
	if _, ok := statDir(w.abs(strings.TrimSuffix(p, "/")), true); !ok {
		w.dirs[p] = &wdir{path: p, absent: true, fresh: true}
		return nil
	}
	return w.walk(p, true)
}

// walk lists directory p afresh and everything below it.
func (w *Writers) walk(p string, follow bool) error {
	d := &wdir{path: p, fresh: true}
	ents, st, err := listDir(w.abs(strings.TrimSuffix(p, "/")), follow)
	if err != nil {
		return errWalk
	}
	d.st, d.seen = w.judge.storedDir(st), st
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
func (w *Writers) readFile(p, name string) wfile {
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
	f.st, f.id = w.judge.stored(st), id
	return f
}

// reread reads f of directory p again, noting whether its id changed.
func (w *Writers) reread(p string, f *wfile) {
	old := f.id
	*f = w.readFile(p, f.name)
	if f.id != old || f.st == (corpus.FileStat{}) {
		w.changed = true
	} else {
		w.pending++
	}
}

// validateDirs re-lists every directory whose stat changed.
func (w *Writers) validateDirs() error {
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
func (w *Writers) relist(d *wdir, follow bool) error {
	ents, st, err := listDir(w.abs(strings.TrimSuffix(d.path, "/")), follow)
	if err != nil {
		return errWalk
	}
	if st.Dev != d.st.Dev || st.Ino != d.st.Ino {
		return errWalk // replaced between the stat and the open: a full scan decides
	}
	// A racy listing is stored smudged (listed again by the next run
	// whatever is saved); one that is not is worth saving, changed or not.
	d.st, d.fresh, d.trusted, d.seen, d.owned = w.judge.storedDir(st), true, !w.judge.racyDir(st), st, 0

	// The records as recorded, by inode (a listed name is the recorded
	// one when its inode and its name match); the raw block is not decoded
	// unless a name is new, gone or of another inode.
	n := len(d.files)
	if d.raw != nil {
		n = d.nraw
	}
	// byIno holds, for each inode, 1 + the first record of it; next, 1 +
	// the following one (hard links share an inode).
	byIno := make(map[uint64]int32, n)
	next := make([]int32, n)
	link := func(i int, ino uint64) {
		next[i] = byIno[ino]
		byIno[ino] = int32(i) + 1
	}
	var nameOf func(i int32) []byte
	if d.raw != nil {
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
		nameOf = func(i int32) []byte {
			_, nm, id := rawAt(d.raw, int(offs[i]))
			return d.raw[nm:id]
		}
	} else {
		for i, f := range d.files {
			link(i, f.st.Ino)
		}
		nameOf = func(i int32) []byte { return []byte(d.files[i].name) }
	}
	keep := make([]bool, n)
	kept := 0
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
			found := false
			for i := byIno[e.ino] - 1; i >= 0; i = next[i] - 1 {
				if !keep[i] && bytes.Equal(nameOf(i), e.name) {
					keep[i], found = true, true
					kept++
					break
				}
			}
			if found {
				continue
			}
			added = append(added, w.readFile(d.path, string(e.name)))
		}
	}
	for name := range oldSubs {
		w.dropTree(d.path + name + "/")
	}
	slices.SortFunc(d.subs, func(a, b wsub) int { return strings.Compare(a.name, b.name) })
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

// lintedName reports whether the walk lists, and the lint checks, a file
// of this name in a directory whose records the lint checks (see
// [relevantDir]): no pattern the lint excludes can start in the directory
// and end in the name, which holds no "/".
func lintedName(name []byte) bool {
	return bytes.HasSuffix(name, []byte(".md")) && string(name) != "INDEX.md" &&
		!bytes.Contains(name, []byte("_archived"))
}

// Resolve implements the id map a lint asks for: the records declaring
// each of ids, in corpus order, one path per distinct file, after stat-ing
// every record whose recorded id is among them and reading again those
// whose stat changed (or is racy).
func (w *Writers) Resolve(ids []string) (*lint.IDMap, error) {
	need := map[string]bool{}
	var few []string // need's ids while they are few: compared without hashing
	for _, id := range ids {
		if id != "" && !need[id] {
			need[id] = true
			few = append(few, id)
		}
	}
	if len(few) > 8 {
		few = nil
	}
	needed := func(b []byte) bool {
		if few == nil {
			return need[string(b)]
		}
		for _, id := range few {
			if string(b) == id {
				return true
			}
		}
		return false
	}
	type hit struct {
		path string
		f    wfile
	}
	var hits []hit
	// validate stats f (of directory p) unless this run read it, and
	// reads it again when its stat changed or is racy.
	validate := func(p string, f *wfile) {
		if f.seen {
			return
		}
		st, ok := lstatFile(w.abs(p + f.name))
		if !ok || st != f.st {
			w.reread(p, f)
		}
		f.seen = true
	}
	for _, d := range w.dirs {
		if d.raw != nil {
			for i, off := 0, 0; off < len(d.raw); i++ {
				end, nm, id := rawAt(d.raw, off)
				var f wfile
				patched := false
				if d.patch != nil {
					f, patched = d.patch[i]
				}
				switch {
				case !patched && !needed(d.raw[id:end]):
					off = end
					continue
				case !patched:
					f = wfile{name: string(d.raw[nm:id]), id: string(d.raw[id:end]), st: rawStat(d.raw, off)}
				case !need[f.id]:
					off = end
					continue
				}
				off = end
				validate(d.path, &f)
				if d.patch == nil {
					d.patch = map[int]wfile{}
				}
				d.patch[i] = f
				if need[f.id] {
					hits = append(hits, hit{d.path + f.name, f})
				}
			}
			continue
		}
		for i := range d.files {
			f := &d.files[i]
			if !need[f.id] {
				continue
			}
			validate(d.path, f)
			if need[f.id] {
				hits = append(hits, hit{d.path + f.name, *f})
			}
		}
	}
	slices.SortFunc(hits, func(a, b hit) int { return strings.Compare(a.path, b.path) })
	files := map[string][]string{}
	kept := map[string][]corpus.FileStat{}
	for _, h := range hits {
		alias := false
		for _, g := range kept[h.f.id] {
			alias = alias || (g.Dev == h.f.st.Dev && g.Ino == h.f.st.Ino)
		}
		if alias {
			continue // one file reached through two stores
		}
		kept[h.f.id] = append(kept[h.f.id], h.f.st)
		files[h.f.id] = append(files[h.f.id], h.path)
	}
	return lint.NewIDMap(files), nil
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
func (w *Writers) Save() error {
	if !w.changed && w.pending < maxPending && !w.anyTrusted() {
		return nil
	}
	dir := filepath.Dir(w.path)
	if err := prepareDir(dir); err != nil {
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
	defer func() { evict(dir, w.path, isNew) }()
	if err := writeAtomic(dir, w.path, func(f io.Writer) error {
		_, err := f.Write(encodeWriters(w.root, w.judge.observed, w.dirs))
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
func (w *Writers) Close() error {
	err := w.Save()
	w.release()
	return err
}

// release releases the loaded file without saving: w must not be used
// after.
func (w *Writers) release() {
	if w.unmap != nil {
		w.dirs = nil // what pointed into the mapping
		w.unmap()
		w.unmap = nil
	}
}

// anyTrusted reports whether a directory was listed again at a stat a
// written index would trust.
func (w *Writers) anyTrusted() bool {
	for _, d := range w.dirs {
		if d.trusted {
			return true
		}
	}
	return false
}

// LintTargets is [lint.LintTargets] for a writer: through the writers'
// index of root when one can be used (and the index then updated for the
// targets), else by reading the corpus.
func LintTargets(root string, targets []string, o Options) (*lint.LintResult, error) {
	w := OpenWriters(root, o)
	if w == nil {
		return lint.LintTargets(root, targets)
	}
	res, err := lint.LintTargetsWith(root, targets, w.Resolve)
	if err != nil {
		w.release()
		return lint.LintTargets(root, targets)
	}
	for _, t := range targets {
		w.Checked(t)
	}
	w.Close()
	return res, nil
}

// reconcileWriters re-reads, in the writers' index of root (when there is
// one), every record a query read again whose stat differs from the one
// recorded (reread: the query's stat of each file it read again, by path;
// asked for only when there is a writers' index),
// so that an edit in place is seen by the writers after the next query.
// Only those files, so that a warm query does no work in proportion to the
// writers' index: a file the query trusted is as the query index's last
// write saw it, and that write came after the reconcile that saw it (an id
// found changed is always saved; a stat alone may be left outdated, see
// Save, which only makes a writer consulting the record read it again).
// compared is how many records were looked at (for tests); err is the
// writers' index's Save: the query index is then not written, so that the
// next query reads those files again.
func reconcileWriters(root string, o Options, reread func() map[string]corpus.FileStat) (compared int, err error) {
	if !haveWriters {
		return 0, nil
	}
	w := openWriters(root, o)
	if w == nil || w.dirs == nil {
		return 0, nil
	}
	byDir := map[string]map[string]corpus.FileStat{}
	for p, st := range reread() {
		i := strings.LastIndexByte(p, '/')
		d := p[:i+1]
		if _, ok := w.dirs[d]; !ok {
			continue
		}
		if byDir[d] == nil {
			byDir[d] = map[string]corpus.FileStat{}
		}
		byDir[d][p[i+1:]] = st
	}
	for dp, names := range byDir {
		d := w.dirs[dp]
		if d.raw != nil { // scanned, not decoded: most records are as recorded
			for i, off := 0, 0; off < len(d.raw); i++ {
				end, nm, id := rawAt(d.raw, off)
				rec := rawStat(d.raw, off)
				st, ok := names[string(d.raw[nm:id])]
				if ok {
					compared++
				}
				if ok && st != rec {
					f := wfile{name: string(d.raw[nm:id]), id: string(d.raw[id:end]), st: rec}
					w.reread(d.path, &f)
					if d.patch == nil {
						d.patch = map[int]wfile{}
					}
					d.patch[i] = f
				}
				off = end
			}
			continue
		}
		for i := range d.files {
			f := &d.files[i]
			st, ok := names[f.name]
			if ok {
				compared++
			}
			if ok && st != f.st {
				w.reread(d.path, f)
			}
		}
	}
	return compared, w.Close()
}

func sortDents(d []dent) {
	slices.SortFunc(d, func(a, b dent) int { return bytes.Compare(a.name, b.name) })
}
