package corpus

import (
	"errors"
	"io/fs"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// Enumerate lists the corpus: every regular *.md file below each store
// directory of root, as the query command sees it. A store that is a symlink to
// a directory is followed; below it nothing is followed (find -H). INDEX.md
// (at any depth) and any path containing "_archived" are left out. Paths are
// printed relative to root with the store spelled exactly as given, and
// returned sorted as byte strings, duplicates from overlapping stores kept.
//
// A store that does not exist, or is not a directory, is skipped silently.
// A directory that cannot be read is skipped too; its error (an
// *fs.PathError naming the root-relative directory) is returned in skipped.
func Enumerate(root string, stores []string) (paths []string, skipped []error) {
	ents, skipped := enumerate(root, stores, false)
	paths = make([]string, len(ents))
	for i, e := range ents {
		paths[i] = e.path
	}
	return paths, skipped
}

// entry is one corpus file: its printed path and the store it came from
// (path[relAt:] is the path below the store directory); id is what lstat
// said of it during an identifying scan (nil when it vanished or was not
// asked for), so a later read can check that it opened the same file
// (os.SameFile: device and inode).
type entry struct {
	path  string
	id    fs.FileInfo
	store int32
	relAt int32
}

// rel is e's path below its store directory.
func (e *entry) rel() string { return e.path[e.relAt:] }

// enumerate lists the corpus; identify records each file's lstat (entry.id).
// It walks the stores concurrently (one goroutine per store, as many at a
// time as there are cores), each store depth-first as before; the results
// are joined in store order, so entries and errors come out exactly as one
// sequential walk would give them.
func enumerate(root string, stores []string, identify bool) ([]entry, []error) {
	out, errs, _ := enumerateWith(root, stores, identify, nil)
	return out, errs
}

// enumerateWith is enumerate that takes each directory's listing from dc
// when dc holds it for the directory's stat, and hands dc what it lists
// again (see [DirCache]). stale reports that a listing from dc did not
// match the directory tree (a subdirectory it names is gone or is no
// longer a directory): the result is then not to be used.
func enumerateWith(root string, stores []string, identify bool, dc DirCache) (_ []entry, _ []error, stale bool) {
	walkers := make([]walker, len(stores))
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	var wg sync.WaitGroup
	for i, s := range stores {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			dir := joinRoot(root, s)
			fi, err := os.Stat(dir)
			if err != nil || !fi.IsDir() {
				return
			}
			prefix := s
			if !strings.HasSuffix(s, "/") {
				prefix += "/"
			}
			w := &walkers[i]
			w.root, w.identify, w.store, w.prefix = root, identify, i, prefix
			if dc != nil && !identify && haveStat {
				w.dc = dc
				w.walkCached(dir, prefix, true, false)
				return
			}
			w.walk(dir, prefix)
		}()
	}
	wg.Wait()
	var errs []error
	for i := range walkers {
		errs = append(errs, walkers[i].errs...)
		stale = stale || walkers[i].stale
	}
	return joinRuns(walkers), errs, stale
}

// joinRuns joins the walkers' entries sorted by path, entries of one path
// in store order (the result of a stable sort of the entries in store
// order). Each store's entries are sorted within the store; stores that
// do not nest cover disjoint ranges of paths, so ordering the stores by
// their first path and checking each boundary is all the sorting most
// corpora need: the entries are copied once, with no comparison each.
func joinRuns(walkers []walker) []entry {
	cmp := func(a, b entry) int { return strings.Compare(a.path, b.path) }
	total := 0
	runs := make([][]entry, 0, len(walkers))
	for i := range walkers {
		r := walkers[i].out
		if len(r) == 0 {
			continue
		}
		if !slices.IsSortedFunc(r, cmp) { // a store's subdirectories interleave its files
			slices.SortFunc(r, cmp) // one store lists a path once
		}
		total += len(r)
		runs = append(runs, r)
	}
	// Two stores whose first paths are equal fail the boundary check below.
	slices.SortFunc(runs, func(a, b []entry) int { return cmp(a[0], b[0]) })
	disjoint := true
	for i := 1; i < len(runs) && disjoint; i++ {
		disjoint = runs[i-1][len(runs[i-1])-1].path < runs[i][0].path
	}
	out := make([]entry, 0, total)
	if disjoint {
		for _, r := range runs {
			out = append(out, r...)
		}
		return out
	}
	for i := range walkers { // stores that nest: sort them together
		out = append(out, walkers[i].out...)
	}
	slices.SortStableFunc(out, cmp)
	return out
}

type walker struct {
	root     string
	identify bool
	store    int
	prefix   string
	out      []entry
	errs     []error
	dc       DirCache // nil: every directory is read (walk)
	stale    bool     // a listing from dc did not match the tree
}

// walk lists dir, whose printed form (ending in "/") is printed.
func (w *walker) walk(dir, printed string) {
	if strings.Contains(printed, "_archived") {
		return
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		w.errs = append(w.errs, &fs.PathError{Op: "open", Path: strings.TrimSuffix(printed, "/"), Err: unwrapPathErr(err)})
	}
	for _, e := range ents {
		name := e.Name()
		switch t := e.Type(); {
		case t.IsDir():
			w.walk(dir+"/"+name, printed+name+"/")
		case t.IsRegular():
			if !isRecordName(name) {
				continue
			}
			p := printed + name
			var id fs.FileInfo
			if w.identify {
				id, _ = e.Info()
			}
			w.out = append(w.out, entry{path: p, id: id, store: int32(w.store), relAt: int32(len(w.prefix))})
		}
	}
}

// A DirCache remembers what the store walk listed of each directory, by the
// directory's [FileStat] (taken on the descriptor the listing is read from,
// before the read): the names of its subdirectories and of its corpus
// files, each list in name order. Adding, removing or renaming an entry
// changes a directory's mtime and ctime, so a listing stored with the
// directory's present stat is its present listing, provided the stat was
// not taken in the granule of a later change (the cache's racy rule, as
// for files). Its methods are called from several goroutines at once.
type DirCache interface {
	// Listing returns what was stored for dir (its printed form, ending
	// in "/") with exactly st, when it may be trusted.
	Listing(dir string, st FileStat) (subdirs, files []string, ok bool)
	// PutListing stores what was listed of dir, whose stat was st.
	PutListing(dir string, st FileStat, subdirs, files []string)
}

// walkCached is walk through w.dc: the directory is opened (following a
// final symlink only for a store itself, as walk does) and fstat'ed, and
// its listing is taken from w.dc when the stat matches, else read from the
// same descriptor and handed to w.dc. listed says a listing from w.dc
// named the directory: one that is gone or is no longer a directory
// marks the walk stale (a fresh listing would not have named it).
func (w *walker) walkCached(dir, printed string, store, listed bool) {
	if strings.Contains(printed, "_archived") {
		return
	}
	f, st, err := openDirStat(dir, store)
	if err != nil {
		if listed && !errors.Is(err, fs.ErrPermission) {
			w.stale = true
			return
		}
		w.errs = append(w.errs, &fs.PathError{Op: "open", Path: strings.TrimSuffix(printed, "/"), Err: unwrapPathErr(err)})
		return
	}
	if subdirs, files, ok := w.dc.Listing(printed, st); ok {
		f.Close()
		w.out = slices.Grow(w.out, len(files))
		for _, name := range files {
			p := printed + name
			w.out = append(w.out, entry{path: p, store: int32(w.store), relAt: int32(len(w.prefix))})
		}
		for _, name := range subdirs {
			w.walkCached(dir+"/"+name, printed+name+"/", false, true)
		}
		return
	}
	ents, err := listEntries(f)
	f.Close()
	slices.SortFunc(ents, func(a, b dirent) int { return strings.Compare(a.name, b.name) })
	// The files' printed paths are cut from one string.
	var subdirs, files []string
	n, size := 0, 0
	for _, e := range ents {
		if e.reg && isRecordName(e.name) {
			n++
			size += len(printed) + len(e.name)
		}
	}
	files = make([]string, 0, n)
	w.out = slices.Grow(w.out, n)
	paths := make([]byte, 0, size)
	for _, e := range ents {
		name := e.name
		switch {
		case e.dir:
			subdirs = append(subdirs, name)
			w.walkCached(dir+"/"+name, printed+name+"/", false, false)
		case e.reg:
			if !isRecordName(name) {
				continue
			}
			files = append(files, name)
			at := len(paths)
			paths = append(append(paths, printed...), name...)
			p := unsafe.String(unsafe.SliceData(paths[at:]), len(paths)-at)
			w.out = append(w.out, entry{path: p, store: int32(w.store), relAt: int32(len(w.prefix))})
		}
	}
	if err != nil { // a listing cut short is not remembered
		w.errs = append(w.errs, &fs.PathError{Op: "open", Path: strings.TrimSuffix(printed, "/"), Err: unwrapPathErr(err)})
		return
	}
	w.dc.PutListing(printed, st, subdirs, files)
}

// isRecordName reports whether a regular file of this name is a corpus
// file: *.md, but not INDEX.md nor any name containing "_archived".
func isRecordName(name string) bool {
	return strings.HasSuffix(name, ".md") && name != "INDEX.md" && !strings.Contains(name, "_archived")
}

func unwrapPathErr(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// joinRoot names a root-relative path on disk without cleaning it.
func joinRoot(root, rel string) string {
	if strings.HasSuffix(root, "/") {
		return root + rel
	}
	return root + "/" + rel
}
