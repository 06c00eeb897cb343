package records

import "github.com/procedures-go/procedures/internal/corpus"

// A Query selects records. Every non-empty field must match (AND). Keyword
// ranks the matches (BM25 over the records the other fields leave, with a
// relative floor per kind); without it, matches come in corpus order. The
// zero Query matches every record.
type Query struct {
	// Keyword is the ranked search text: its tokens are the runs of ASCII
	// letters and digits (lowercased) of two or more characters.
	Keyword string
	Kind    string // the kind equals it
	ID      string // the id equals it
	LinksTo string // one of the link tokens equals it
	Project string // the project equals it, or its part after the last "/" does
	// Limit caps the number of results; 0 means no cap.
	Limit int
	// RelRatio drops a keyword match scoring below RelRatio times the best
	// score of its kind. 0 means [DefaultRelRatio]; a negative value keeps
	// every match.
	RelRatio float64
}

// DefaultRelRatio is the relative floor of a keyword search whose
// [Query.RelRatio] is 0.
const DefaultRelRatio = 0.3

// A Record is one corpus file as queries see it.
type Record struct {
	Path     string   // relative to the corpus root, store spelled as given
	ID       string   // the id: scalar (a plain value's first word, a quoted one whole)
	Kind     string   // the kind: scalar; also the ranking bucket
	Project  string   // the project: scalar
	Status   string   // the status: scalar
	Keywords []string // the keywords: values
	Links    []string // the link tokens a LinksTo query compares against
	Gloss    string   // one-line description: first non-blank body line
	Score    float64  // keyword rank score; 0 on structural queries
}

// Query runs q over the corpus, reading every corpus file once. It fails
// with a *ScanError when a corpus file cannot be read (even one q would not
// have matched), and with a *NoTokenError when Keyword has no token and the
// other fields leave something to search.
func (c *Corpus) Query(q Query) ([]Record, error) {
	eq := corpus.Query{Keyword: q.Keyword, Kind: q.Kind, ID: q.ID, LinksTo: q.LinksTo,
		Project: q.Project, Limit: q.Limit, RelRatio: q.RelRatio}
	switch {
	case q.RelRatio == 0:
		eq.RelRatio = DefaultRelRatio
	case q.RelRatio < 0:
		eq.RelRatio = 0
	}
	rs, err := c.engine().Query(eq)
	if err != nil {
		return nil, fromEngine(err)
	}
	out := make([]Record, len(rs))
	for i, r := range rs {
		out[i] = Record(r)
	}
	return out, nil
}
