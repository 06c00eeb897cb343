package corpus

import (
	"io/fs"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
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
// (rel is the path below the store directory); id is what lstat said of it
// during an identifying scan (nil when it vanished or was not asked for), so a later read can check that it
// opened the same file (os.SameFile: device and inode).
type entry struct {
	path  string
	store int
	rel   string
	id    fs.FileInfo
}

// enumerate lists the corpus; identify records each file's lstat (entry.id).
// It walks the stores concurrently (one goroutine per store, as many at a
// time as there are cores), each store depth-first as before; the results
// are joined in store order, so entries and errors come out exactly as one
// sequential walk would give them.
func enumerate(root string, stores []string, identify bool) ([]entry, []error) {
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
			w.walk(dir, prefix)
		}()
	}
	wg.Wait()
	var out []entry
	var errs []error
	for i := range walkers {
		out = append(out, walkers[i].out...)
		errs = append(errs, walkers[i].errs...)
	}
	slices.SortStableFunc(out, func(a, b entry) int { return strings.Compare(a.path, b.path) })
	return out, errs
}

type walker struct {
	root     string
	identify bool
	store    int
	prefix   string
	out      []entry
	errs     []error
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
			if !strings.HasSuffix(name, ".md") || name == "INDEX.md" {
				continue
			}
			p := printed + name
			if strings.Contains(name, "_archived") {
				continue
			}
			var id fs.FileInfo
			if w.identify {
				id, _ = e.Info()
			}
			w.out = append(w.out, entry{path: p, store: w.store, rel: p[len(w.prefix):], id: id})
		}
	}
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
