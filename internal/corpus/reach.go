package corpus

import (
	"cmp"
	"slices"
	"unsafe"

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
// unreached. It holds each record's terms encoded, not its body: the body
// is read again only for the words of an unreached record's suggestions.
func (c *Corpus) Reach(abbrev map[string]string, top int) ([]Unreached, int, error) {
	an := search.NewAnalyzer(abbrev)
	n := len(c.entries)
	encs := make([]string, n)           // each record's encoded statistics
	fields := make([]*search.Fields, n) // and its fields but the body
	type worker struct {
		an   *search.Analyzer
		v    recView
		at   map[string]int
		crlf []byte
		enc  []byte
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
		f[search.Body] = "" // read again only for the words of a record's suggestions
		if cap(w.enc)-len(w.enc) < 64<<10 {
			w.enc = make([]byte, 0, 1<<20)
		}
		from := len(w.enc)
		w.enc = search.AppendStats(w.enc, &d)
		b := w.enc[from:len(w.enc):len(w.enc)] // never written again
		encs[i], fields[i] = unsafe.String(unsafe.SliceData(b), len(b)), f
	})
	if err != nil {
		return nil, 0, err
	}
	ix, err := search.NewIndexOf(encs)
	if err != nil {
		return nil, 0, err
	}
	var out []Unreached
	checked := 0
	for i, f := range fields {
		if f == nil {
			continue
		}
		checked++
		title := f[search.Title]
		pos := 0
		if title != "" {
			pos = ix.Position(search.NewMatcher(an, title).Terms(), i)
		}
		if pos > 0 && pos <= top {
			continue
		}
		u := Unreached{Path: c.entries[i].path, Gloss: cmp.Or(title, noGloss), Rank: pos}
		u.Terms = c.reachingWords(an, ix.Reaching(encs[i], i, top), f, i)
		out = append(out, u)
	}
	return out, checked, nil
}

// reachingWords is the word of the i-th record (f: its fields but the
// body) that each of terms comes from, the first one in its title,
// keywords, name and body, in that order (the term itself when none):
// the body is read again only when a term is not found before it.
func (c *Corpus) reachingWords(an *search.Analyzer, terms []string, f *search.Fields, i int) []string {
	if len(terms) == 0 {
		return nil
	}
	words := an.Words(f[search.Title] + " " + f[search.Keywords] + " " + f[search.Name])
	if slices.ContainsFunc(terms, func(t string) bool { return words[t] == "" }) {
		for t, w := range an.Words(c.bodyOf(i)) {
			if words[t] == "" {
				words[t] = w
			}
		}
	}
	out := make([]string, len(terms))
	for k, t := range terms {
		out[k] = cmp.Or(words[t], t)
	}
	return out
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
