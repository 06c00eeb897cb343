package queryrecords

import (
	"errors"
	"strconv"

	"github.com/procedures-go/procedures/internal/corpus"
	"github.com/procedures-go/procedures/internal/index"
)

// searchLimit is how many records --search lists when neither --limit nor
// $QUERY_RECORDS_LIMIT says.
const searchLimit = 20

// searchRecords is the --search mode: the records ranked by free-text
// relevance to the goal, filtered by --kind and --project, as "path —
// gloss" lines (and --full dumps), best first.
func searchRecords(c *corpus.Corpus, ix *index.Index, o *options, root string, limit int, limitEnvSet bool) ([]byte, error) {
	for _, f := range []string{"--keyword", "--id", "--links-to", "--recall", "--rel-ratio"} {
		if o.given(f) {
			return nil, usage("--search is its own ranking — combine it only with --kind, --project, --limit and --full, not " + f)
		}
	}
	text := o.get("--search")
	if !o.given("--limit") && !limitEnvSet {
		limit = searchLimit
	}
	abbrev, err := corpus.ReadAbbreviations(root)
	if err != nil {
		return nil, usage(err.Error())
	}
	filter := corpus.Query{Kind: o.get("--kind"), Project: o.get("--project"), Limit: limit}
	res, err := ix.Search(c, corpus.SearchQuery{Text: text, Filter: filter, Abbreviations: abbrev})
	if _, ok := errors.AsType[*corpus.NoTokenError](err); ok {
		return nil, usage("--search " + strconv.Quote(text) + " has no word of 2+ letters or digits — nothing to search.")
	}
	if err != nil {
		return nil, err
	}
	return matchLines(c, o, res)
}
