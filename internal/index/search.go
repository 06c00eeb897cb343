package index

import "github.com/procedures-go/procedures/internal/corpus"

// The search index is a second index file next to the query index, of the
// same format and trust rules, whose entries also hold each record's term
// statistics (see [corpus.Corpus.SearchCached]): --search loads it, and the
// other queries never do, so that their index stays as small as it was.
const searchSuffix = ".search.idx"

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
// saves ix afterwards; a nil ix reads every file.
func (ix *Index) Search(c *corpus.Corpus, q corpus.SearchQuery) ([]corpus.Record, error) {
	if ix == nil {
		return c.Search(q)
	}
	res, err := c.SearchCached(q, ix)
	if err == nil {
		ix.finish(c)
	}
	return res, err
}
