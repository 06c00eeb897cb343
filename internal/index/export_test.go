package index

import (
	"os"
	"slices"

	"github.com/procedures-go/procedures/internal/cachefile"
	"github.com/procedures-go/procedures/internal/corpus"
)

// rewrite rewrites the index file at path in place (same mode, same
// owner, and its mtime kept, so that what it holds stays trusted) with
// each entry's metadata and each directory listing edited.
func rewrite(path string, meta func(p, m string) []byte, edit func(subdirs, files []string) ([]string, []string)) error {
	x, err := readIndex(path)
	if err != nil {
		return err
	}
	full := map[string]entry{}
	for _, e := range x.entries {
		st, m, _ := e.decode()
		full[e.path] = entry{St: st, meta: meta(e.path, m)}
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
	_, err = f.Write(append(encode(x.root, x.stores, x.observed, full, x.dirs), x.tail...))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chtimes(path, fi.ModTime(), fi.ModTime())
	}
	return err
}

func readIndex(path string) (decoded, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return decoded{}, err
	}
	header := magic + " " + itoa(Version) + "\n"
	if len(b) < len(header) {
		return decoded{}, errCorrupt
	}
	return decode(b[len(header):])
}

func keepListing(subdirs, files []string) ([]string, []string) { return subdirs, files }

// Poison rewrites the index file at path in place with every entry's kind
// set to kind (what a search index keeps after it, and its inverted file,
// unchanged): an index that would be believed would now give wrong
// answers.
func Poison(path, kind string) error {
	return rewrite(path, func(p, meta string) []byte {
		m := corpus.DecodeMeta(p, meta, false)
		rest := meta[len(corpus.AppendMeta(nil, m)):]
		m.Rec.Kind = kind
		return append(corpus.AppendMeta(nil, m), rest...)
	}, keepListing)
}

// HideFile rewrites the index file at path in place with name left out of
// every stored directory listing (and its entry kept): an index whose
// listings were believed would no longer list that file.
func HideFile(path, name string) error {
	return EditListings(path, func(subdirs, files []string) ([]string, []string) {
		return subdirs, slices.DeleteFunc(slices.Clone(files), func(f string) bool { return f == name })
	})
}

// EditListings rewrites the index file at path in place with each
// directory listing edited.
func EditListings(path string, edit func(subdirs, files []string) ([]string, []string)) error {
	return rewrite(path, func(_, m string) []byte { return []byte(m) }, edit)
}

// Listings is the number of directory listings stored in the index file
// at path.
func Listings(path string) (int, error) {
	x, err := readIndex(path)
	return len(x.dirs), err
}

// MapEvery maps every index file a query loads, however small; the
// function it returns restores the threshold.
func MapEvery() (restore func()) {
	old := mapFrom
	mapFrom = 0
	return func() { mapFrom = old }
}

// OneSecond, NoFine and WaitTrusted are cachefile's, for the index's
// tests.
var (
	OneSecond   = cachefile.OneSecond
	NoFine      = cachefile.NoFine
	WaitTrusted = cachefile.WaitTrusted
)

// CorruptPostings rewrites the search index file at path in place with the
// first half of its inverted file (the postings) inverted bit for bit, its
// checksummed body untouched.
func CorruptPostings(path string) error {
	x, err := readIndex(path)
	if err != nil {
		return err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	from := len(b) - len(x.tail)
	for i := from; i < from+len(x.tail)/2; i++ {
		b[i] ^= 0xff
	}
	return os.WriteFile(path, b, 0o600)
}

// InvertedPart is the inverted file that follows the checksummed body of
// the search index file at path.
func InvertedPart(path string) (string, error) {
	x, err := readIndex(path)
	return x.tail, err
}
