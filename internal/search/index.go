package search

import (
	"cmp"
	"math"
	"slices"
)

// An Index holds every term of a set of records (see [Analyzer.Stats]),
// inverted, so that many queries over the same records each cost only
// the postings of their terms: the reachability lint ranks every record's
// title against all the others this way. Its ranking is [Matcher.Rank]'s,
// score for score, for a query whose terms all occur in some record.
type Index struct {
	n        int
	avg      [NumFields]float64
	lens     [][NumFields]int32
	postings map[string][]posting
	scores   []float64 // scratch of a query: by record
	touched  []int32   // the records with a score
}

type posting struct {
	doc int32
	tf  [NumFields]uint16
}

// Stats analyses one record's fields keeping every term: the statistics
// an [Index] is built from.
func (a *Analyzer) Stats(f *Fields, at map[string]int) DocStats {
	var d DocStats
	clear(at)
	for field := range NumFields {
		a.Each(f[field], false, func(t string) {
			d.Len[field]++
			i, ok := at[t]
			if !ok {
				i = len(d.Hits)
				at[t] = i
				d.Hits = append(d.Hits, Hit{Term: t})
			}
			if d.Hits[i].TF[field] < 0xffff {
				d.Hits[i].TF[field]++
			}
		})
	}
	return d
}

// NewIndex inverts docs (nil entries are not part of the set). It keeps
// the field lengths and postings, not docs.
func NewIndex(docs []*DocStats) *Index {
	ix := &Index{lens: make([][NumFields]int32, len(docs)), postings: map[string][]posting{}}
	var sumLen [NumFields]float64
	for i, d := range docs {
		if d == nil {
			continue
		}
		ix.n++
		ix.lens[i] = d.Len
		for f := range NumFields {
			sumLen[f] += float64(d.Len[f])
		}
		for _, h := range d.Hits {
			ix.postings[h.Term] = append(ix.postings[h.Term], posting{doc: int32(i), tf: h.TF})
		}
	}
	for f := range NumFields {
		ix.avg[f] = max(sumLen[f]/float64(max(ix.n, 1)), 1)
	}
	return ix
}

// Rank ranks the records for the query terms (as [Matcher.Terms] gives
// them), best first, ties in position order. Terms no record holds are
// ignored (no close-spelling fallback). An Index is not safe for
// concurrent use (it keeps its scratch space).
func (ix *Index) Rank(terms []string) []Scored {
	ix.score(terms)
	out := make([]Scored, 0, len(ix.touched))
	for _, doc := range ix.touched {
		if s := ix.scores[doc]; s > 0 {
			out = append(out, Scored{Doc: int(doc), Score: s})
		}
	}
	slices.SortFunc(out, func(a, b Scored) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Doc, b.Doc)
	})
	return out
}

// score fills ix.scores for the records holding a term, listed in
// ix.touched; the parts of each score are added in term order, as
// [Matcher.Rank] adds them.
func (ix *Index) score(terms []string) {
	for _, doc := range ix.touched {
		ix.scores[doc] = 0
	}
	ix.touched = ix.touched[:0]
	if ix.scores == nil {
		ix.scores = make([]float64, len(ix.lens))
	}
	terms = slices.Clone(terms)
	slices.Sort(terms)
	terms = slices.Compact(terms)
	for _, t := range terms {
		ps := ix.postings[t]
		if len(ps) == 0 {
			continue
		}
		d := float64(len(ps))
		idf := math.Log(1 + (float64(ix.n)-d+0.5)/(d+0.5))
		for _, p := range ps {
			h := Hit{Term: t, TF: p.tf}
			ds := DocStats{Len: ix.lens[p.doc]}
			if ix.scores[p.doc] == 0 {
				ix.touched = append(ix.touched, p.doc)
			}
			ix.scores[p.doc] += idf * saturate(&h, &ds, &ix.avg)
		}
	}
}

// Position is doc's 1-based rank for terms, or 0 when it is not ranked:
// one plus how many records score above it, or equal and earlier. It
// costs the postings of terms, without sorting.
func (ix *Index) Position(terms []string, doc int) int {
	ix.score(terms)
	mine := ix.scores[doc]
	if mine <= 0 {
		return 0
	}
	pos := 1
	for _, o := range ix.touched {
		if s := ix.scores[o]; s > mine || s == mine && int(o) < doc {
			pos++
		}
	}
	return pos
}

// maxSuggestions bounds the terms [Index.Reaching] tries for one record:
// its most distinctive ones (frequency in its fields times rarity).
const maxSuggestions = 40

// Reaching is the terms of doc (d is its statistics) that alone would rank
// it within top, best first (lowest rank, then held by the most records,
// then in term order): what its author could add to its keywords or title.
func (ix *Index) Reaching(d *DocStats, doc, top int) []string {
	type cand struct {
		term     string
		weight   float64
		pos, has int
	}
	var cs []cand
	for _, h := range d.Hits {
		n := float64(len(ix.postings[h.Term]))
		idf := math.Log(1 + (float64(ix.n)-n+0.5)/(n+0.5))
		cs = append(cs, cand{term: h.Term, weight: idf * saturate(&h, d, &ix.avg), has: int(n)})
	}
	slices.SortFunc(cs, func(a, b cand) int {
		if c := cmp.Compare(b.weight, a.weight); c != 0 {
			return c
		}
		return cmp.Compare(a.term, b.term)
	})
	cs = cs[:min(len(cs), maxSuggestions)]
	kept := cs[:0]
	for _, c := range cs {
		if c.pos = ix.Position([]string{c.term}, doc); c.pos > 0 && c.pos <= top {
			kept = append(kept, c)
		}
	}
	slices.SortFunc(kept, func(a, b cand) int {
		if c := cmp.Compare(a.pos, b.pos); c != 0 {
			return c
		}
		if c := cmp.Compare(b.has, a.has); c != 0 {
			return c
		}
		return cmp.Compare(a.term, b.term)
	})
	out := make([]string, len(kept))
	for i, c := range kept {
		out[i] = c.term
	}
	return out
}
