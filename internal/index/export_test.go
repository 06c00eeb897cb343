package index

import (
	"os"
	"slices"

	"github.com/procedures-go/procedures/internal/corpus"
)

// Poison rewrites the index file at path in place (same mode, same owner)
// with every entry's kind set to kind: an index that would be believed
// would now give wrong answers.
func Poison(path, kind string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	header := magic + " " + itoa(Version) + "\n"
	x, err := decode(b[len(header):])
	if err != nil {
		return err
	}
	full := map[string]entry{}
	for _, e := range x.entries {
		st, meta, _ := e.decode()
		m := corpus.DecodeMeta(e.path, meta, false)
		m.Rec.Kind = kind
		full[e.path] = entry{St: st, meta: corpus.AppendMeta(nil, m)}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(encode(x.root, x.stores, full, x.dirs))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// HideFile rewrites the index file at path in place with name left out of
// every stored directory listing (and its entry kept): an index whose
// listings were believed would no longer list that file.
func HideFile(path, name string) error {
	return EditListings(path, func(subdirs, files []string) ([]string, []string) {
		return subdirs, slices.DeleteFunc(slices.Clone(files), func(f string) bool { return f == name })
	})
}

// EditListings rewrites the index file at path in place (its mtime kept,
// so that its listings stay trusted) with each directory listing edited.
func EditListings(path string, edit func(subdirs, files []string) ([]string, []string)) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	header := magic + " " + itoa(Version) + "\n"
	x, err := decode(b[len(header):])
	if err != nil {
		return err
	}
	full := map[string]entry{}
	for _, e := range x.entries {
		st, meta, _ := e.decode()
		full[e.path] = entry{St: st, meta: []byte(meta)}
	}
	for d, l := range x.dirs {
		l.subdirs, l.files = edit(l.subdirs, l.files)
		x.dirs[d] = l
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(encode(x.root, x.stores, full, x.dirs))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil { // the write's second as before: the listings stay trusted
		err = os.Chtimes(path, fi.ModTime(), fi.ModTime())
	}
	return err
}

// Listings is the number of directory listings stored in the index file
// at path.
func Listings(path string) (int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	header := magic + " " + itoa(Version) + "\n"
	x, err := decode(b[len(header):])
	return len(x.dirs), err
}

// PoisonWriters rewrites the writers' index at path in place (same mode,
// same owner) with every record's id set to "rec-1".
func PoisonWriters(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	d := &fixed{b: b[len(writersMagic+" 1\n"):]}
	root := string(d.take(d.u32()))
	dirs, err := decodeWriters(b, root)
	if err != nil {
		return err
	}
	for _, wd := range dirs {
		files := wd.decoded()
		for i := range files {
			files[i].id = "rec-1"
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(encodeWriters(root, dirs))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
