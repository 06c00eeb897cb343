package index

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/procedures-go/procedures/records"
)

// The writers' index serves enforce-frontmatter and log-record, which ask
// the corpus only "which records declare this id?" for a handful of ids.
// It is a second file next to the query index, <hash>.wdx, keyed by the
// resolved root and the ten record stores, holding for every directory the
// lint walks its stat and its subdirectories, and for every record the lint
// checks its stat and the id the lint maps it under. A writer validates
// only what it consults:
//
//   - every recorded directory is stat-ed; one whose stat differs, or whose
//     mtime falls in the index write's second (racy), is listed again, and
//     of its names only the new ones and those now naming another inode are
//     stat-ed and read (a directory that is another directory now, or a
//     new subdirectory, is walked whole);
//   - every record whose recorded id is one the writer asks about is
//     stat-ed, and read again when its stat differs or is racy.
//
// A record edited in place (same name, same inode) to declare an id it did
// not declare is therefore not seen by a writer asking about that id until
// a query (which stats every file) or a writer consulting it reads it
// again: query-records re-reads, in the writers' index, every record whose
// stat it found changed.

const (
	writersMagic   = "procedures-writers"
	writersVersion = 1
)

// wfile is one lintable record of a directory.
type wfile struct {
	name string
	st   records.FileStat
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
	files  []wfile // by name
	fresh  bool    // listed in this run
}

// Writers is the writers' index of one corpus, validated as far as a
// writer needs it; see the package's writers.go for the rules.
type Writers struct {
	root    string // resolved
	path    string // the index file
	granule int64
	dirs    map[string]*wdir
	changed bool
	buf     []byte
}

var errWalk = errors.New("index: the walk failed")

// writersKey names the writers' index file of root in dir.
func writersFile(dir, root string) string {
	key := sha256.Sum256([]byte(root + "\x00writers\x00" + strings.Join(records.Stores(), "\x00")))
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
func OpenWriters(root string, getenv func(string) string) *Writers {
	if Disabled(getenv) || !haveWriters {
		return nil
	}
	w := openWriters(root, getenv)
	if w == nil {
		return nil
	}
	if w.dirs == nil {
		if w.build() != nil {
			return nil
		}
	} else if w.validateDirs() != nil {
		return nil
	}
	return w
}

// openWriters finds and loads the index file; dirs is nil when there is
// none to load. nil when no index may be kept.
func openWriters(root string, getenv func(string) string) *Writers {
	abs, ok := resolveRoot(root)
	if !ok {
		return nil
	}
	dir := Dir(getenv)
	if dir == "" || inside(dir, abs) {
		return nil
	}
	if fi, err := os.Lstat(dir); err == nil && !trusted(fi, true) {
		return nil
	}
	w := &Writers{root: abs, path: writersFile(dir, abs), buf: make([]byte, 0, 16<<10)}
	w.load()
	return w
}

func (w *Writers) load() {
	f, err := os.OpenFile(w.path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !trusted(fi, false) || fi.Size() > maxSize {
		return
	}
	b := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return
	}
	dirs, err := decodeWriters(b, w.root)
	if err != nil {
		return
	}
	w.dirs = dirs
	w.granule = fi.ModTime().Unix()
}

// build walks every record store afresh.
func (w *Writers) build() error {
	w.dirs = map[string]*wdir{}
	w.changed = true
	for _, s := range records.Stores() {
		if err := w.walkStore(s + "/"); err != nil {
			return err
		}
	}
	return nil
}

// relevantDir reports whether the lint checks records below the
// root-relative directory p (ending in "/").
func relevantDir(p string) bool {
	return !strings.Contains(p, "_archived") && records.IsLintableRecord(p+"x.md")
}

// lintedFile reports whether the walk lists name in directory p and the
// lint checks it.
func lintedFile(p, name string) bool {
	return strings.HasSuffix(name, ".md") && name != "INDEX.md" &&
		!strings.Contains(name, "_archived") && records.IsLintableRecord(p+name)
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
	st, ok := statDir(w.abs(strings.TrimSuffix(p, "/")), true)
	if !ok {
		w.dirs[p] = &wdir{path: p, absent: true, fresh: true}
		return nil
	}
	_ = st
	return w.walk(p, true)
}

// walk lists directory p afresh and everything below it.
func (w *Writers) walk(p string, follow bool) error {
	d := &wdir{path: p, fresh: true}
	ents, st, err := listDir(w.abs(strings.TrimSuffix(p, "/")), follow)
	if err != nil {
		return errWalk
	}
	d.st = st
	w.dirs[p] = d
	w.changed = true
	for _, e := range ents {
		switch {
		case e.dir:
			if sp := p + e.name + "/"; relevantDir(sp) {
				d.subs = append(d.subs, wsub{e.name, e.ino})
				if err := w.walk(sp, false); err != nil {
					return err
				}
			}
		case e.reg:
			if lintedFile(p, e.name) {
				d.files = append(d.files, w.readFile(p, e.name))
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
	id, buf, err := records.ReadLintID(full, w.buf)
	w.buf = buf
	if err != nil {
		return f
	}
	f.st, f.id = st, id
	w.changed = true
	return f
}

// validateDirs re-lists every directory whose stat changed.
func (w *Writers) validateDirs() error {
	paths := make([]string, 0, len(w.dirs))
	for p := range w.dirs {
		paths = append(paths, p)
	}
	slices.Sort(paths) // a parent before its subdirectories
	stores := map[string]bool{}
	for _, s := range records.Stores() {
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
		case st != d.st || st.MtimeNs/1e9 >= w.granule:
			if err := w.relist(d, follow); err != nil {
				return err
			}
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
	old := d.files
	oldSubs := d.subs
	d.files, d.subs, d.st = nil, nil, st
	d.fresh = true
	w.changed = true
	fi, si := 0, 0
	listedSubs := map[string]bool{}
	for _, e := range ents {
		switch {
		case e.dir:
			sp := d.path + e.name + "/"
			if !relevantDir(sp) {
				continue
			}
			listedSubs[e.name] = true
			d.subs = append(d.subs, wsub{e.name, e.ino})
			for si < len(oldSubs) && oldSubs[si].name < e.name {
				si++
			}
			if si < len(oldSubs) && oldSubs[si].name == e.name && oldSubs[si].ino == e.ino {
				if _, ok := w.dirs[sp]; ok {
					continue // validated on its own
				}
			}
			w.dropTree(sp)
			if err := w.walk(sp, false); err != nil {
				return err
			}
		case e.reg:
			if !lintedFile(d.path, e.name) {
				continue
			}
			for fi < len(old) && old[fi].name < e.name {
				fi++
			}
			if fi < len(old) && old[fi].name == e.name && old[fi].st.Ino == e.ino && e.ino != 0 {
				d.files = append(d.files, old[fi])
				continue
			}
			d.files = append(d.files, w.readFile(d.path, e.name))
		}
	}
	for _, s := range oldSubs {
		if !listedSubs[s.name] {
			w.dropTree(d.path + s.name + "/")
		}
	}
	return nil
}

// Resolve implements the id map a lint asks for: the records declaring
// each of ids, in corpus order, one path per distinct file, after stat-ing
// every record whose recorded id is among them and reading again those
// whose stat changed (or is racy).
func (w *Writers) Resolve(ids []string) (*records.IDMap, error) {
	need := map[string]bool{}
	for _, id := range ids {
		if id != "" {
			need[id] = true
		}
	}
	type hit struct {
		path string
		f    *wfile
	}
	var hits []hit
	for _, d := range w.dirs {
		for i := range d.files {
			f := &d.files[i]
			if !need[f.id] {
				continue
			}
			if !f.seen {
				st, ok := lstatFile(w.abs(d.path + f.name))
				if !ok || st != f.st || st.MtimeNs/1e9 >= w.granule {
					*f = w.readFile(d.path, f.name)
				}
				f.seen = true
			}
			if need[f.id] {
				hits = append(hits, hit{d.path + f.name, f})
			}
		}
	}
	slices.SortFunc(hits, func(a, b hit) int { return strings.Compare(a.path, b.path) })
	files := map[string][]string{}
	kept := map[string][]*wfile{}
	for _, h := range hits {
		alias := false
		for _, g := range kept[h.f.id] {
			alias = alias || (g.st.Dev == h.f.st.Dev && g.st.Ino == h.f.st.Ino)
		}
		if alias {
			continue // one file reached through two stores
		}
		kept[h.f.id] = append(kept[h.f.id], h.f)
		files[h.f.id] = append(files[h.f.id], h.path)
	}
	return records.NewIDMap(files), nil
}

// Wrote records that the writer wrote (or checked) the record at the
// root-relative path rel: its entry is read again now.
func (w *Writers) Wrote(rel string) {
	i := strings.LastIndexByte(rel, '/')
	if i < 0 {
		return
	}
	p, name := rel[:i+1], rel[i+1:]
	d, ok := w.dirs[p]
	if !ok || d.absent || !lintedFile(p, name) {
		return
	}
	f := w.readFile(p, name)
	j, found := slices.BinarySearchFunc(d.files, name, func(f wfile, n string) int { return strings.Compare(f.name, n) })
	if found {
		d.files[j] = f
	} else {
		d.files = slices.Insert(d.files, j, f)
	}
	w.changed = true
}

// Save writes the index back when something changed. Errors are for
// tests; callers ignore them (the index is a cache).
func (w *Writers) Save() error {
	if !w.changed {
		return nil
	}
	dir := filepath.Dir(w.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	dfi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !trusted(dfi, true) {
		return errors.New("index: untrusted directory " + dir)
	}
	if err := writeAtomic(dir, w.path, encodeWriters(w.root, w.dirs)); err != nil {
		return err
	}
	w.changed = false
	return nil
}

// LintTargets is [records.LintTargets] for a writer: through the writers'
// index of root when one can be used (and the index then updated for the
// targets), else by reading the corpus.
func LintTargets(root string, targets []string, getenv func(string) string) (*records.LintResult, error) {
	w := OpenWriters(root, getenv)
	if w == nil {
		return records.LintTargets(root, targets)
	}
	res, err := records.LintTargetsWith(root, targets, w.Resolve)
	if err != nil {
		return records.LintTargets(root, targets)
	}
	for _, t := range targets {
		w.Wrote(t)
	}
	w.Save()
	return res, nil
}

// reconcileWriters re-reads, in the writers' index of root (when there is
// one), every record whose stat a query found different from the one
// recorded, so that an edit in place is seen by the writers after the next
// query. stat is the query's stat of each corpus path.
func reconcileWriters(root string, getenv func(string) string, stat func(path string) (records.FileStat, bool)) {
	if !haveWriters {
		return
	}
	w := openWriters(root, getenv)
	if w == nil || w.dirs == nil {
		return
	}
	for _, d := range w.dirs {
		for i := range d.files {
			f := &d.files[i]
			st, ok := stat(d.path + f.name)
			if ok && (st != f.st || f.st.MtimeNs/1e9 >= w.granule) {
				*f = w.readFile(d.path, f.name)
			}
		}
	}
	w.Save()
}

// encodeWriters is the writers' index file: the header line, a body of
// varints and length-prefixed strings, its CRC-32C:
//
//	root, #dirs, dirs… (sorted by path)
//	dir: path, absent, dev, ino, mtime ns, ctime ns, #subs, (name, ino)…,
//	     #files, (name, size, mtime ns, ctime ns, ino, dev, mode, id)…
func encodeWriters(root string, dirs map[string]*wdir) []byte {
	b := []byte(writersMagic + " " + itoa(writersVersion) + "\n")
	start := len(b)
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	str(root)
	paths := make([]string, 0, len(dirs))
	for p := range dirs {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	b = binary.AppendUvarint(b, uint64(len(paths)))
	for _, p := range paths {
		d := dirs[p]
		str(p)
		if d.absent {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
		b = binary.AppendUvarint(b, d.st.Dev)
		b = binary.AppendUvarint(b, d.st.Ino)
		b = binary.AppendVarint(b, d.st.MtimeNs)
		b = binary.AppendVarint(b, d.st.CtimeNs)
		b = binary.AppendUvarint(b, uint64(len(d.subs)))
		for _, s := range d.subs {
			str(s.name)
			b = binary.AppendUvarint(b, s.ino)
		}
		b = binary.AppendUvarint(b, uint64(len(d.files)))
		for _, f := range d.files {
			str(f.name)
			b = binary.AppendVarint(b, f.st.Size)
			b = binary.AppendVarint(b, f.st.MtimeNs)
			b = binary.AppendVarint(b, f.st.CtimeNs)
			b = binary.AppendUvarint(b, f.st.Ino)
			b = binary.AppendUvarint(b, f.st.Dev)
			b = binary.AppendUvarint(b, uint64(f.st.Mode))
			str(f.id)
		}
	}
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b[start:], crcTable))
}

func decodeWriters(b []byte, root string) (map[string]*wdir, error) {
	header := writersMagic + " " + itoa(writersVersion) + "\n"
	if len(b) < len(header)+4 || string(b[:len(header)]) != header {
		return nil, errCorrupt
	}
	body := b[len(header):]
	data, sum := body[:len(body)-4], binary.BigEndian.Uint32(body[len(body)-4:])
	if crc32.Checksum(data, crcTable) != sum {
		return nil, errCorrupt
	}
	d := &decoder{s: string(data)}
	if d.str() != root {
		return nil, errCorrupt
	}
	n := d.uvarint()
	if n > uint64(len(d.s)) {
		return nil, errCorrupt
	}
	dirs := make(map[string]*wdir, n)
	for range n {
		wd := &wdir{path: d.str()}
		wd.absent = d.byte() == 1
		wd.st.Dev, wd.st.Ino = d.uvarint(), d.uvarint()
		wd.st.MtimeNs, wd.st.CtimeNs = d.varint(), d.varint()
		ns := d.uvarint()
		if d.err != nil || ns > uint64(len(d.s)) {
			return nil, errCorrupt
		}
		for range ns {
			wd.subs = append(wd.subs, wsub{d.str(), d.uvarint()})
		}
		nf := d.uvarint()
		if d.err != nil || nf > uint64(len(d.s)) {
			return nil, errCorrupt
		}
		wd.files = make([]wfile, nf)
		for i := range wd.files {
			f := &wd.files[i]
			f.name = d.str()
			f.st.Size, f.st.MtimeNs, f.st.CtimeNs = d.varint(), d.varint(), d.varint()
			f.st.Ino, f.st.Dev, f.st.Mode = d.uvarint(), d.uvarint(), uint32(d.uvarint())
			f.id = d.str()
		}
		if d.err != nil || !strings.HasSuffix(wd.path, "/") {
			return nil, errCorrupt
		}
		dirs[wd.path] = wd
	}
	if d.err != nil || len(d.s) != 0 {
		return nil, errCorrupt
	}
	return dirs, nil
}

func sortDents(d []dent) {
	slices.SortFunc(d, func(a, b dent) int { return strings.Compare(a.name, b.name) })
}
