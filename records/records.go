package records

import (
	"iter"

	"github.com/procedures-go/procedures/internal/corpus"
)

// Options configures [Open]. The zero value scans the default stores.
type Options struct {
	// Stores are the directories scanned, relative to the root, in order.
	// nil means [DefaultStores]; a non-nil empty list scans nothing. A
	// store that does not exist is simply empty.
	Stores []string
	// Abbreviations are the store's own short forms for [Corpus.Search]
	// (short form -> expansion: "sso": "single sign-on"), used with the
	// built-in list on the query's side and the records' alike.
	// query-records reads them from search-abbreviations.txt at the
	// corpus root.
	Abbreviations map[string]string
}

// DefaultStores returns the stores [Open] scans when [Options.Stores] is
// nil: the ten record stores (references/decisions, plans, …) in listing
// order, then the vendor store "titw".
func DefaultStores() []string { return corpus.DefaultStores() }

// A Corpus is the set of record files under a root: what one scan of its
// stores listed. Queries, dumps and membership all use this one listing.
// Its methods may be called from several goroutines. The zero Corpus is
// empty.
type Corpus struct {
	c      *corpus.Corpus
	abbrev map[string]string
}

// Open lists the corpus under root: every regular *.md file below each
// store directory (a store that is a symlink to a directory is followed;
// below it nothing is), leaving out INDEX.md and any path containing
// "_archived". It fails with a *NoRootError when root cannot be entered.
func Open(root string, opts Options) (*Corpus, error) {
	stores := opts.Stores
	if stores == nil {
		stores = corpus.DefaultStores()
	}
	c, err := corpus.Open(root, stores)
	if err != nil {
		return nil, fromEngine(err)
	}
	return &Corpus{c: c, abbrev: opts.Abbreviations}, nil
}

var empty corpus.Corpus

func (c *Corpus) engine() *corpus.Corpus {
	if c == nil || c.c == nil {
		return &empty
	}
	return c.c
}

// Paths returns the corpus paths (relative to the root, each store spelled
// as given), in byte order, duplicates from overlapping stores kept.
func (c *Corpus) Paths() []string { return c.engine().Paths() }

// Skipped returns the errors of the directories the scan could not read
// (each an *fs.PathError naming the root-relative directory); their files
// are not in the corpus.
func (c *Corpus) Skipped() []error { return append([]error(nil), c.engine().Skipped...) }

// Records reads the corpus files one after the other, in corpus order, as
// [Corpus.Query] reads them, and yields each one's fields (Score 0). A file
// that cannot be read yields a Record holding only its Path and a
// *ScanError; the iteration goes on unless the caller stops it.
func (c *Corpus) Records() iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		for r, err := range c.engine().Records() {
			if !yield(Record(r), fromEngine(err)) {
				return
			}
		}
	}
}

// Member maps a reference to the corpus path it names, if any. One leading
// "./" is removed; then an absolute path starting with the root exactly as
// given to [Open] plus "/" loses that prefix. Nothing else is done (no
// "..", glob or symlink resolution): the result must equal, byte for byte,
// a path the scan listed.
func (c *Corpus) Member(ref string) (string, bool) { return c.engine().Member(ref) }

// A Dump is one record [Corpus.Cat] read: its corpus path and full content.
type Dump struct {
	Path    string
	Content []byte
}

// Cat resolves references (see [Corpus.Member]) and reads the records they
// name, deduplicated in first-occurrence order. It is all or nothing: a
// reference that is not a corpus member gives a *CatError, a member that
// cannot be read a *ScanError, and no dumps in either case.
func (c *Corpus) Cat(refs []string) ([]Dump, error) {
	ds, err := c.engine().Cat(refs)
	if err != nil {
		return nil, fromEngine(err)
	}
	out := make([]Dump, len(ds))
	for i, d := range ds {
		out[i] = Dump(d)
	}
	return out, nil
}

// ReadFile reads a corpus member whole, refusing any path the scan did not
// list (an error matching fs.ErrNotExist). It opens the file below its store
// directory without leaving it and without following a symlink in its last
// component; it never waits on a FIFO swapped in ([ErrNotRegular]); and it
// refuses a file above 16 MiB with a *TooLargeError, reading none of it.
func (c *Corpus) ReadFile(path string) ([]byte, error) {
	b, err := c.engine().ReadFile(path)
	return b, fromEngine(err)
}
