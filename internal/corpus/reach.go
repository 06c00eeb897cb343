package corpus

import (
	"cmp"

	"github.com/procedures-go/procedures/internal/search"
)

// An Unreached record is one that a search for its own title does not
// rank within the top asked for.
type Unreached struct {
	Path  string
	Gloss string
	Rank  int      // its rank for its title; 0: not ranked at all, or no title
	Terms []string // words of the record that alone rank it within the top
}

// Reach asks, for every record, whether [Corpus.Search] for its own title
// (gloss) ranks it within top, and returns those it does not, in corpus
// order, with the number of records checked. It reads every file once (as
// Search does) and ranks the titles over an inverted index of the records'
// terms, so its cost is the records' terms plus, per record, the records
// sharing a word of its title. A record with no title line ("(record)") is
// unreached.
func (c *Corpus) Reach(abbrev map[string]string, top int) ([]Unreached, int, error) {
	an := search.NewAnalyzer(abbrev)
	n := len(c.entries)
	docs := make([]*search.DocStats, n)
	fields := make([]*search.Fields, n)
	type worker struct {
		an   *search.Analyzer
		v    recView
		at   map[string]int
		crlf []byte
	}
	newWorker := func() any { return &worker{an: an.Clone(), at: map[string]int{}} }
	err := c.scanUpTo(haveSearchHead, newWorker, func(i int, content []byte, capped bool, wa any) {
		w := wa.(*worker)
		v := &w.v
		if !v.parseHead(content, capped, &w.crlf) {
			return
		}
		f := new(search.Fields)
		searchFields(f, c.entries[i].path, v)
		d := w.an.Stats(f, w.at)
		f[search.Body] = "" // the body is read again for an unreached record only
		docs[i], fields[i] = &d, f
	})
	if err != nil {
		return nil, 0, err
	}
	ix := search.NewIndex(docs)
	for _, d := range docs { // the index holds them now; an unreached record is analysed again
		if d != nil {
			d.Hits = nil
		}
	}
	var out []Unreached
	checked := 0
	for i, d := range docs {
		if d == nil {
			continue
		}
		checked++
		title := fields[i][search.Title]
		pos := 0
		if title != "" {
			pos = ix.Position(search.NewMatcher(an, title).Terms(), i)
		}
		if pos > 0 && pos <= top {
			continue
		}
		u := Unreached{Path: c.entries[i].path, Gloss: cmp.Or(title, noGloss), Rank: pos}
		f := *fields[i]
		f[search.Body] = c.bodyOf(i)
		full := an.Stats(&f, map[string]int{})
		words := an.Words(f[search.Title] + " " + f[search.Keywords] + " " + f[search.Name] + " " + f[search.Body])
		for _, t := range ix.Reaching(&full, i, top) {
			if w := words[t]; w != "" {
				u.Terms = append(u.Terms, w)
			} else {
				u.Terms = append(u.Terms, t)
			}
		}
		out = append(out, u)
	}
	return out, checked, nil
}

// noGloss is the gloss of a record without a title line.
const noGloss = "(record)"

// bodyOf is the searched part of the i-th record's body, read again ("" if
// it cannot be).
func (c *Corpus) bodyOf(i int) string {
	b, err := c.ReadFile(c.entries[i].path)
	if err != nil {
		return ""
	}
	var v recView
	v.parse(normalizeCRLF(nil, b))
	return string(v.body[:min(len(v.body), search.MaxBody)])
}
