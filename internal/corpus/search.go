package corpus

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/procedures-go/procedures/internal/frontmatter"
	"github.com/procedures-go/procedures/internal/search"
)

// A SearchQuery is a free-text search (see [Corpus.Search]).
type SearchQuery struct {
	Text string // the goal, in words
	// Filter's structural fields (Kind, ID, LinksTo, Project) select the
	// records searched, as in [Corpus.Query]; its Limit caps the results (0:
	// no cap). Its Keyword and RelRatio play no part.
	Filter Query
	// Abbreviations are a store's own short forms, on top of
	// [search.DefaultAbbreviations] (see [search.ParseAbbreviations]).
	Abbreviations map[string]string
}

// Search ranks the records that pass q's filters by the free-text
// relevance of their title (gloss), keywords, id and path words, and body
// to q.Text (BM25F: see package search), best first, ties in corpus order;
// records that hold no term of the text (nor a close spelling of one) are
// not listed. Each record is read as far as its frontmatter and the first
// [search.MaxBody] bytes of its body, never more than [MaxFrontmatter]
// bytes. It fails with a *NoTokenError when the text has no term, and with
// a *ScanError when a corpus file cannot be read.
func (c *Corpus) Search(q SearchQuery) ([]Record, error) {
	an := search.NewAnalyzer(q.Abbreviations)
	m := search.NewMatcher(an, q.Text)
	if len(m.Terms()) == 0 {
		return nil, &NoTokenError{Keyword: q.Text}
	}
	if len(c.entries) == 0 {
		return nil, nil
	}
	filter := q.Filter
	docs := make([]*search.DocStats, len(c.entries))
	recs := make([]*Record, len(c.entries))
	type worker struct {
		v    recView
		sw   *search.Worker
		crlf []byte
	}
	newWorker := func() any { return &worker{sw: m.NewWorker(an.Clone())} }
	err := c.scanUpTo(haveSearchHead, newWorker, func(i int, content []byte, capped bool, wa any) {
		w := wa.(*worker)
		v := &w.v
		if !v.parseHead(content, capped, &w.crlf) || !v.structural(filter) {
			return
		}
		var f search.Fields
		searchFields(&f, c.entries[i].path, v)
		d := w.sw.Doc(&f)
		docs[i] = &d
		if len(d.Hits) > 0 {
			recs[i] = recordOf(c.entries[i].path, v)
		}
	})
	if err != nil {
		return nil, err
	}
	return searchResult(m.Rank(docs), recs, q.Filter.Limit), nil
}

// searchResult is the ranked records, cut at limit (0: no cap).
func searchResult(ranked []search.Scored, recs []*Record, limit int) []Record {
	if limit > 0 && len(ranked) > limit {
		ranked = ranked[:limit]
	}
	out := make([]Record, len(ranked))
	for k, s := range ranked {
		out[k] = *recs[s.Doc]
		out[k].Score = s.Score
	}
	return out
}

// searchFields fills f with the text of a parsed record's fields.
func searchFields(f *search.Fields, path string, v *recView) {
	if f[search.Title] = gloss(v.body, v.present && !v.terminated); f[search.Title] == noGloss {
		f[search.Title] = "" // no title line: nothing to rank on
	}
	var kw strings.Builder
	v.eachLeaf("keywords", func(b []byte) {
		kw.Write(b)
		kw.WriteByte(' ')
	})
	f[search.Keywords] = kw.String()
	f[search.Name] = string(v.scalar("id")) + " " + path
	body := v.body
	if len(body) > search.MaxBody {
		body = body[:search.MaxBody]
	}
	f[search.Body] = string(body)
}

// haveSearchHead reports whether a file prefix holds all a search reads:
// the frontmatter is decided and [search.MaxBody] bytes of body follow.
func haveSearchHead(b []byte) bool {
	if len(b) < search.MaxBody {
		return false
	}
	b = normalizeCRLF(nil, completeLines(b))
	present, terminated, _, body := frontmatter.SplitFences(b)
	return (!present || terminated) && len(body) >= search.MaxBody
}

// ReadAbbreviations reads the store's own abbreviation list,
// [search.AbbreviationsFile] at the corpus root: nil when there is none.
// It is read only if it is a regular file (not a symlink) of at most
// [search.MaxAbbreviationsBytes] bytes, without waiting on a FIFO; an
// error names the file and what is wrong with it.
func ReadAbbreviations(root string) (map[string]string, error) {
	name := joinRoot(root, search.AbbreviationsFile)
	fi, err := os.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	fail := func(why string) error { return fmt.Errorf("%s: %s", name, why) }
	if err != nil {
		return nil, fail(err.Error())
	}
	if !fi.Mode().IsRegular() {
		return nil, fail("not a regular file")
	}
	b, capped, err := readHead(name, nil, func(b []byte) bool { return len(b) > search.MaxAbbreviationsBytes })
	if err != nil {
		return nil, fail(err.Error())
	}
	if capped || len(b) > search.MaxAbbreviationsBytes {
		return nil, fail(fmt.Sprintf("above the %d-byte cap", search.MaxAbbreviationsBytes))
	}
	m, err := search.ParseAbbreviations(b)
	if err != nil {
		return nil, fail(err.Error())
	}
	return m, nil
}
