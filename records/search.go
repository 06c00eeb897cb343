package records

import "github.com/procedures-go/procedures/internal/corpus"

// Search ranks the records by how well their title (gloss), keywords, id
// and path words, and body (its first 64 KiB) answer text, a goal in
// words ("how do I open a PR"): a field-weighted BM25 (BM25F), title and
// keywords weighing most. Both sides are read alike: split into words,
// lowered, stop words dropped, abbreviations expanded (a built-in list
// and [Options.Abbreviations]), stemmed; a word no record holds falls back
// to close spellings. q's Kind, ID, LinksTo and Project select the records
// searched, as in [Corpus.Query], and q.Limit caps the results; q.Keyword
// and q.RelRatio play no part. Results come best first (Score set), ties
// in corpus order; a record holding no word of the text is not listed.
//
// It reads every corpus file once, as far as its frontmatter and the first
// 64 KiB of its body. It fails with a *NoTokenError when text has no word
// of two or more letters or digits, and with a *ScanError when a corpus
// file cannot be read. It is query-records --search.
func (c *Corpus) Search(text string, q Query) ([]Record, error) {
	filter := corpus.Query{Kind: q.Kind, ID: q.ID, LinksTo: q.LinksTo, Project: q.Project, Limit: q.Limit}
	rs, err := c.engine().Search(corpus.SearchQuery{Text: text, Filter: filter, Abbreviations: c.abbrev})
	if err != nil {
		return nil, fromEngine(err)
	}
	out := make([]Record, len(rs))
	for i, r := range rs {
		out[i] = Record(r)
	}
	return out, nil
}
