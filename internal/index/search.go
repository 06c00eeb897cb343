package index

import (
	"errors"
	"io"
	"os"
	"sync"
	"unsafe"

	"github.com/procedures-go/procedures/internal/corpus"
	"github.com/procedures-go/procedures/internal/search"
)

// The search index is a second index file next to the query index, of the
// same format and trust rules, whose entries also hold each record's field
// lengths, and whose checksummed body is followed by the records' terms,
// inverted (see [search.OpenInverted]): --search loads it, and the other
// queries never do, so that their index stays as small as it was. A warm
// search checks the body's checksum, as a query does, and then reads and
// checks only the dictionary blocks and postings of its terms.
const searchSuffix = ".search.idx"

// searchState is what a search index keeps beyond a query index's.
type searchState struct {
	inv   *search.Inverted // the loaded file's inverted part; nil: none loaded
	mu    sync.Mutex
	terms map[int]string // by corpus position: the term statistics of a file read again
}

// ForSearch is [ForQuery] for a free-text search: the search index of
// root and stores, or nil when o turns the index off.
func ForSearch(root string, stores []string, o Options) *Index {
	if o.Off {
		return nil
	}
	if stores == nil {
		stores = corpus.DefaultStores()
	}
	return open(root, stores, o, searchSuffix)
}

// Search runs q over c (listed by [Index.Corpus], or by corpus.Open of the
// same root and stores) through ix, a search index ([ForSearch]), and
// saves ix afterwards; a nil ix reads every file. When a part of the
// loaded inverted file turns out corrupt, the search runs again with
// nothing loaded, and the index is rebuilt.
func (ix *Index) Search(c *corpus.Corpus, q corpus.SearchQuery) ([]corpus.Record, error) {
	if ix == nil {
		return c.Search(q)
	}
	res, err := c.SearchCached(q, ix)
	if errors.Is(err, search.ErrCorrupt) {
		ix.dropLoaded()
		res, err = c.SearchCached(q, ix)
	}
	if err == nil {
		ix.finish(c)
	}
	return res, err
}

// dropLoaded forgets the loaded entries and what the last search put.
func (ix *Index) dropLoaded() {
	ix.old = nil
	if ix.srch != nil {
		ix.srch.inv, ix.srch.terms = nil, nil
	}
}

// takeTail keeps what follows a loaded index's checksummed body: the
// search index's inverted file, which must be well formed and written
// for as many entries; the query index has nothing there. It reports
// whether the index may be used.
func (ix *Index) takeTail(x decoded) bool {
	if ix.srch == nil {
		return x.tail == ""
	}
	inv, err := search.OpenInverted(x.tail)
	if err != nil || inv.Entries() != len(x.entries) {
		return false
	}
	ix.srch.inv = inv
	return true
}

// PutTerms implements [corpus.SearchCache].
func (ix *Index) PutTerms(i int, terms []byte) {
	s := ix.srch
	if s == nil {
		return
	}
	s.mu.Lock()
	if s.terms == nil {
		s.terms = map[int]string{}
	}
	s.terms[i] = unsafe.String(unsafe.SliceData(terms), len(terms)) // never written again
	s.mu.Unlock()
}

// Inverted implements [corpus.SearchCache].
func (ix *Index) Inverted() *search.Inverted {
	if ix.srch == nil {
		return nil
	}
	return ix.srch.inv
}

// Entry implements [corpus.SearchCache].
func (ix *Index) Entry(i int) int { return int(ix.pos[i]) }

// writeInverted writes the inverted file of the entries Save writes (keep:
// their corpus positions, in order): the loaded postings of the entries
// kept as loaded, renumbered, merged with the terms of the files read
// again. When a loaded part is corrupt, the index file is removed, to be
// rebuilt by the next search.
func (ix *Index) writeInverted(w io.Writer, paths []string, keep []int32) error {
	s := ix.srch
	var renumber []int32 // by loaded entry: its number in the file written, or -1
	if s.inv != nil {
		renumber = make([]int32, len(ix.old))
		for j := range renumber {
			renumber[j] = -1
		}
	}
	iv := search.NewInverter()
	for k, i := range keep {
		if ix.reread(int(i)).meta != nil {
			if t, ok := s.terms[int(i)]; ok && !iv.Add(k, t) {
				return errors.New("index: malformed term statistics of " + paths[i])
			}
		} else if j := ix.pos[i]; j >= 0 && renumber != nil {
			renumber[j] = int32(k)
		}
	}
	err := search.Merge(search.NewPostingsWriter(w, len(keep)), s.inv, renumber, iv)
	if errors.Is(err, search.ErrCorrupt) {
		os.Remove(ix.path)
	}
	return err
}
