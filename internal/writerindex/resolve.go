package writerindex

import (
	"slices"
	"strings"

	"github.com/procedures-go/procedures/internal/corpus"
	"github.com/procedures-go/procedures/internal/lint"
)

// What the index answers (the records declaring an id) and what it is told
// by a query (the records it read again).

// Resolve implements the id map a lint asks for: the records declaring
// each of ids, in corpus order, one path per distinct file, after stat-ing
// every record whose recorded id is among them and reading again those
// whose stat changed (or is racy).
func (w *Index) Resolve(ids []string) (*lint.IDMap, error) {
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

// Reconcile re-reads, in the writers' index of root (when there is
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
func Reconcile(root string, o Options, reread func() map[string]corpus.FileStat) (compared int, err error) {
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
