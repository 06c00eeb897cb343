package search

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// An Index holds every term of a set of records (see [Analyzer.Stats]),
// inverted, so that many queries over the same records each cost only
// the postings of their terms: the reachability lint ranks every record's
// title against all the others this way. Its ranking is [Matcher.Rank]'s,
// score for score, for a query whose terms all occur in some record.
type Index struct {
	n        int
	avg      [NumFields]float64
	postings map[string]*postingList
	scores   []float64 // scratch of a query: by record
	touched  []int32   // the records with a score
}

// A postingList is the records holding one term, in record order, each
// with the term's share of its score (idf times the saturated frequency),
// the largest share, and (built when first asked for) the records by share.
type postingList struct {
	term    string
	idf     float64
	ps      []posting
	maxC    float64
	byShare []posting
}

type posting struct {
	doc int32
	c   float64
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
// each posting's share of the score, not docs.
func NewIndex(docs []*DocStats) *Index {
	ix := &Index{postings: map[string]*postingList{}, scores: make([]float64, len(docs))}
	var sumLen [NumFields]float64
	for _, d := range docs {
		if d == nil {
			continue
		}
		ix.n++
		for f := range NumFields {
			sumLen[f] += float64(d.Len[f])
		}
		for _, h := range d.Hits {
			pl := ix.postings[h.Term]
			if pl == nil {
				pl = &postingList{term: h.Term}
				ix.postings[h.Term] = pl
			}
			pl.ps = append(pl.ps, posting{}) // counted now, filled below
		}
	}
	for f := range NumFields {
		ix.avg[f] = max(sumLen[f]/float64(max(ix.n, 1)), 1)
	}
	ix.setIDF()
	for i, d := range docs {
		if d == nil {
			continue
		}
		for k := range d.Hits {
			ix.postings[d.Hits[k].Term].add(i, &d.Hits[k], d, &ix.avg)
		}
	}
	return ix
}

// setIDF sets each posting list's idf from its length (the count of its
// records), and empties it to be filled.
func (ix *Index) setIDF() {
	for _, pl := range ix.postings {
		d := float64(len(pl.ps))
		pl.idf = math.Log(1 + (float64(ix.n)-d+0.5)/(d+0.5))
		pl.ps = pl.ps[:0]
	}
}

// add appends record doc's posting (h of d) with its share of the score.
func (pl *postingList) add(doc int, h *Hit, d *DocStats, avg *[NumFields]float64) {
	c := pl.idf * saturate(h, d, avg)
	pl.ps = append(pl.ps, posting{doc: int32(doc), c: c})
	pl.maxC = max(pl.maxC, c)
}

// NewIndexOf is [NewIndex] of records' encoded statistics (see
// [AppendStats]; "": not part of the set), decoded twice rather than
// held: each posting list is made at its length.
func NewIndexOf(encs []string) (*Index, error) {
	ix := &Index{postings: map[string]*postingList{}, scores: make([]float64, len(encs))}
	var sumLen [NumFields]float64
	counts := map[*postingList]int{}
	err := eachStats(encs, func(_ int, d *DocStats, t string, _ *Hit) {
		if t == "" {
			ix.n++
			for f := range NumFields {
				sumLen[f] += float64(d.Len[f])
			}
			return
		}
		pl := ix.postings[t]
		if pl == nil {
			pl = &postingList{term: strings.Clone(t)}
			ix.postings[pl.term] = pl
		}
		counts[pl]++
	})
	if err != nil {
		return nil, err
	}
	for f := range NumFields {
		ix.avg[f] = max(sumLen[f]/float64(max(ix.n, 1)), 1)
	}
	for pl, n := range counts {
		pl.ps = make([]posting, n)
	}
	ix.setIDF()
	eachStats(encs, func(i int, d *DocStats, t string, h *Hit) {
		if t != "" {
			ix.postings[t].add(i, h, d, &ix.avg)
		}
	})
	return ix, nil
}

// eachStats calls fn for each record of encs: once with its field lengths
// and no term, then with each of its terms (valid during the call only).
func eachStats(encs []string, fn func(i int, d *DocStats, t string, h *Hit)) error {
	for i, enc := range encs {
		if enc == "" {
			continue
		}
		r, lens, ok := ReadStats(enc)
		if !ok {
			return ErrCorrupt
		}
		d := DocStats{Len: lens}
		fn(i, &d, "", nil)
		var h Hit
		for {
			t, tf, ok := r.Next()
			if !ok {
				break
			}
			h.TF = tf
			fn(i, &d, t, &h)
		}
		if !r.OK() {
			return ErrCorrupt
		}
	}
	return nil
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
// ix.touched; the shares of each score are added in term order, as
// [Matcher.Rank] adds them.
func (ix *Index) score(terms []string) {
	ix.reset()
	for _, t := range sortedTerms(terms) {
		pl := ix.postings[t]
		if pl == nil {
			continue
		}
		for _, p := range pl.ps {
			if ix.scores[p.doc] == 0 {
				ix.touched = append(ix.touched, p.doc)
			}
			ix.scores[p.doc] += p.c
		}
	}
}

func (ix *Index) reset() {
	for _, doc := range ix.touched {
		ix.scores[doc] = 0
	}
	ix.touched = ix.touched[:0]
}

func sortedTerms(terms []string) []string {
	terms = slices.Clone(terms)
	slices.Sort(terms)
	return slices.Compact(terms)
}

// share is the share of doc's score of the term whose list is pl (0: doc
// does not hold it, or pl is nil).
func (pl *postingList) share(doc int32) float64 {
	if pl == nil {
		return 0
	}
	i, found := slices.BinarySearchFunc(pl.ps, doc, func(p posting, d int32) int { return cmp.Compare(p.doc, d) })
	if !found {
		return 0
	}
	return pl.ps[i].c
}

// lists is the posting list of each term (nil: no record holds it).
func (ix *Index) lists(terms []string) []*postingList {
	out := make([]*postingList, len(terms))
	for k, t := range terms {
		out[k] = ix.postings[t]
	}
	return out
}

// fullScore is doc's score for the lists of the sorted, distinct terms,
// added as [Matcher.Rank] adds it.
func fullScore(lists []*postingList, doc int32) float64 {
	s := 0.0
	for _, pl := range lists {
		s += pl.share(doc)
	}
	return s
}

// Position is doc's 1-based rank for terms, or 0 when it is not ranked:
// one plus how many records score above it, or equal and earlier. Only
// the records holding a term whose share could lift them to doc's score
// are scored (the terms' largest shares bound the rest: max-score
// pruning), so a title's common words cost little.
func (ix *Index) Position(terms []string, doc int) int {
	terms = sortedTerms(terms)
	lists := ix.lists(terms)
	mine := fullScore(lists, int32(doc))
	if mine <= 0 {
		return 0
	}
	// The lists by largest share: a record holding only the first k of
	// their terms scores at most the sum of their largest shares.
	byMax := slices.DeleteFunc(slices.Clone(lists), func(pl *postingList) bool { return pl == nil })
	slices.SortFunc(byMax, func(a, b *postingList) int {
		if c := cmp.Compare(a.maxC, b.maxC); c != 0 {
			return c
		}
		return strings.Compare(a.term, b.term)
	})
	bound, k := 0.0, 0
	for k < len(byMax) && (bound+byMax[k].maxC)*(1+1e-9) < mine {
		bound += byMax[k].maxC
		k++
	}
	ix.reset()
	for _, pl := range byMax[k:] {
		for _, p := range pl.ps {
			if ix.scores[p.doc] == 0 {
				ix.scores[p.doc] = 1
				ix.touched = append(ix.touched, p.doc)
			}
		}
	}
	pos := 1
	for _, o := range ix.touched {
		if o == int32(doc) {
			continue
		}
		if s := fullScore(lists, o); s > mine || s == mine && int(o) < doc {
			pos++
		}
	}
	return pos
}

// position1 is doc's rank for the single term of pl, where its share is
// mine, by binary search in the term's records ordered by share.
func (pl *postingList) position1(doc int, mine float64) int {
	if pl.byShare == nil {
		pl.byShare = slices.Clone(pl.ps)
		slices.SortFunc(pl.byShare, func(a, b posting) int {
			if c := cmp.Compare(b.c, a.c); c != 0 {
				return c
			}
			return cmp.Compare(a.doc, b.doc)
		})
	}
	i, _ := slices.BinarySearchFunc(pl.byShare, posting{doc: int32(doc), c: mine}, func(a, b posting) int {
		if c := cmp.Compare(b.c, a.c); c != 0 {
			return c
		}
		return cmp.Compare(a.doc, b.doc)
	})
	return i + 1
}

// maxSuggestions bounds the terms [Index.Reaching] tries for one record:
// its most distinctive ones (frequency in its fields times rarity).
const maxSuggestions = 40

// Reaching is the terms of doc (enc is its encoded statistics, see
// [AppendStats]) that alone would rank it within top, best first (lowest
// rank, then held by the most records, then in term order): what its
// author could add to its keywords or title. Its most distinctive terms
// are tried (frequency in its fields times rarity), at most
// maxSuggestions of them.
func (ix *Index) Reaching(enc string, doc, top int) []string {
	type cand struct {
		pl       *postingList
		weight   float64
		pos, has int
	}
	r, lens, ok := ReadStats(enc)
	if !ok {
		return nil
	}
	d := DocStats{Len: lens}
	var cs []cand
	for {
		t, tf, ok := r.Next()
		if !ok {
			break
		}
		if pl := ix.postings[t]; pl != nil {
			h := Hit{TF: tf}
			cs = append(cs, cand{pl: pl, weight: pl.idf * saturate(&h, &d, &ix.avg), has: len(pl.ps)})
		}
	}
	slices.SortFunc(cs, func(a, b cand) int {
		if c := cmp.Compare(b.weight, a.weight); c != 0 {
			return c
		}
		return strings.Compare(a.pl.term, b.pl.term)
	})
	cs = cs[:min(len(cs), maxSuggestions)]
	kept := cs[:0]
	for _, c := range cs {
		if c.weight <= 0 {
			continue
		}
		if c.pos = c.pl.position1(doc, c.weight); c.pos <= top {
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
		return strings.Compare(a.pl.term, b.pl.term)
	})
	out := make([]string, len(kept))
	for i, c := range kept {
		out[i] = c.pl.term
	}
	return out
}
