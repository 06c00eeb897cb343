package writerindex

import (
	"slices"
	"strings"

	"github.com/procedures-go/procedures/internal/cachefile"
	"github.com/procedures-go/procedures/internal/corpus"
)

// What a writer tells the writers' index of its own writes.

// maxOwned is how many own writes in a row a directory's listing may
// account for before the next writer lists the directory again.
const maxOwned = 16

// dirOf is the recorded directory of the root-relative path rel, and the
// name rel has in it; nil when the directory is not recorded or absent.
func (w *Index) dirOf(rel string) (*wdir, string) {
	i := strings.LastIndexByte(rel, '/')
	if i < 0 {
		return nil, ""
	}
	d, ok := w.dirs[rel[:i+1]]
	if !ok || d.absent {
		return nil, ""
	}
	return d, rel[i+1:]
}

// statOf stats directory d as the walk does (a store's final symlink
// followed).
func (w *Index) statOf(d *wdir) (dirStat, bool) {
	follow := slices.Contains(corpus.Stores(), strings.TrimSuffix(d.path, "/"))
	return statDir(w.abs(strings.TrimSuffix(d.path, "/")), follow)
}

// Writing tells w that the writer is about to write the record at the
// root-relative path rel. The directory is stat-ed now: when its stat is
// still the one this run observed, what the writer then writes can be
// accounted for (see Wrote).
func (w *Index) Writing(rel string) {
	d, _ := w.dirOf(rel)
	if d == nil || d.seen == (dirStat{}) {
		return
	}
	if st, ok := w.statOf(d); ok && st == d.seen {
		d.pre = st
	}
}

// Wrote records that the writer wrote the record at the root-relative path
// rel: its entry is read again now, and its directory's listing accounts
// for the write (see account).
func (w *Index) Wrote(rel string) {
	if d, _ := w.dirOf(rel); d != nil {
		w.account(d)
	}
	w.note(rel)
}

// Checked records that the writer checked the record at the root-relative
// path rel, which it did not write: its entry is read again now.
func (w *Index) Checked(rel string) { w.note(rel) }

// account takes d's stat after the writer's own write as its listing's
// stat, so that the next writer does not list d again: only when d's stat
// just before the write was the one this run observed (Writing), the write
// changed it, and the file system moves the ctime on every later change
// (so the stat is not racy, see cachefile.FineDev). The listing is then what was
// observed plus what the writer wrote, and any other change after the
// write changes the stat again. Otherwise, and after maxOwned such writes
// in a row, d's stored stat stays as observed, which no longer matches:
// the next writer lists d again.
func (w *Index) account(d *wdir) {
	pre := d.pre
	d.pre = dirStat{}
	d.trusted = false // written to: its stat as listed is no longer its own
	if pre == (dirStat{}) || d.owned >= maxOwned {
		return
	}
	st, ok := w.statOf(d)
	if !ok || st.Dev != pre.Dev || st.Ino != pre.Ino || st == pre || racyDir(w.judge, st) {
		return
	}
	d.st, d.seen, d.trusted = st, st, true
	d.owned++
}

// note reads again the entry of the record at rel.
func (w *Index) note(rel string) {
	d, name := w.dirOf(rel)
	if d == nil || !lintedFile(d.path, name) {
		return
	}
	p := d.path
	if d.raw != nil {
		found := -1
		var f wfile
		eachRaw(d.raw, func(i int, n, id []byte, st corpus.FileStat) bool {
			if string(n) == name {
				found, f = i, wfile{name: name, id: string(id), st: st}
				return false
			}
			return true
		})
		if found >= 0 {
			if pf, ok := d.patch[found]; ok {
				f = pf
			}
			w.reread(p, &f)
			if d.patch == nil {
				d.patch = map[int]wfile{}
			}
			d.patch[found] = f
			return
		}
	}
	if d.raw != nil {
		keep := make([]bool, d.nraw)
		for i := range keep {
			keep[i] = true
		}
		mergeRaw(d, keep, []wfile{w.readFile(p, name)})
		w.pending++
		return
	}
	files := d.files
	j, found := slices.BinarySearchFunc(files, name, func(f wfile, n string) int { return strings.Compare(f.name, n) })
	if found {
		w.reread(p, &d.files[j])
	} else {
		d.files = slices.Insert(d.files, j, w.readFile(p, name))
		w.pending++
	}
}

// ReadBy tells the writers' index of root (when there is one) about the
// records at the root-relative paths read, which a command read without
// the query index (query-records --cat): each whose stat differs from the
// one recorded is read again there, so that an id changed in place is seen
// by the writers once any command has read the file.
func ReadBy(root string, read []string, o Options) {
	if len(read) == 0 || o.Off || !haveWriters {
		return
	}
	abs, ok := cachefile.ResolveRoot(root)
	if !ok {
		return
	}
	Reconcile(abs, o, func() map[string]corpus.FileStat {
		out := make(map[string]corpus.FileStat, len(read))
		for _, rel := range read {
			if st, ok := lstatFile(abs + "/" + rel); ok {
				out[rel] = st
			}
		}
		return out
	})
}
