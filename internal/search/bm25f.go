package search

import (
	"cmp"
	"math"
	"slices"
)

// Field is one of the four fields a record is ranked on.
type Field int

// The fields, in the order of [Fields].
const (
	Title    Field = iota // the gloss: the record's title line
	Keywords              // the keywords' values
	Name                  // the id and the path's words
	Body                  // the body, its first MaxBody bytes
	NumFields
)

// Fields is one record's text, by field.
type Fields [NumFields]string

// MaxBody is the most of a record's body that is ranked, in bytes (64 KiB);
// the rest is not read.
const MaxBody = 64 << 10

// BM25F parameters: a field's weight multiplies its term frequency, its B
// is how much the field's length (against the average) damps it, and K1
// saturates the weighted frequency. Title and keywords are short and say
// what a record is about, so a term there counts most. A body is damped
// almost in full proportion to its length (a long page names many things
// in passing), and K1 is high, so that a term in the title or keywords
// and again in the body keeps counting (see docs/search.md, "Benchmark":
// set on the Hugo goals, checked on the held-out C++ goals).
var (
	Weights = [NumFields]float64{Title: 4, Keywords: 4, Name: 2, Body: 1}
	B       = [NumFields]float64{Title: 0.5, Keywords: 0.4, Name: 0.4, Body: 0.95}
)

// K1 is BM25's saturation constant.
const K1 = 3.0

// FuzzyWeight scales a close-spelling term against an exact one.
const FuzzyWeight = 0.5

// A Hit is how often one term occurs in each field of one record.
type Hit struct {
	Term string
	TF   [NumFields]uint16
}

// DocStats is what a search keeps of one record: its field lengths in
// terms and its hits for the query's terms and their close spellings.
type DocStats struct {
	Len  [NumFields]int32
	Hits []Hit
}

// A Scored is a record's position (as given to [Matcher.Rank]) and score.
type Scored struct {
	Doc   int
	Score float64
}

// Rank scores docs (nil entries are not part of the set searched) and
// returns those scoring above zero, best first, ties in position order.
func (m *Matcher) Rank(docs []*DocStats) []Scored {
	var n int
	var sumLen [NumFields]float64
	df := map[string]int{}
	for _, d := range docs {
		if d == nil {
			continue
		}
		n++
		for f := range NumFields {
			sumLen[f] += float64(d.Len[f])
		}
		for _, h := range d.Hits {
			df[h.Term]++
		}
	}
	if n == 0 {
		return nil
	}
	var avg [NumFields]float64
	for f := range NumFields {
		avg[f] = max(sumLen[f]/float64(n), 1)
	}
	weight := m.termWeights(df)
	idf := make(map[string]float64, len(weight))
	for t := range weight {
		d := float64(df[t])
		idf[t] = math.Log(1 + (float64(n)-d+0.5)/(d+0.5))
	}
	var out []Scored
	var parts []part
	for i, d := range docs {
		if d == nil {
			continue
		}
		parts = parts[:0]
		for _, h := range d.Hits {
			if w, ok := weight[h.Term]; ok {
				parts = append(parts, part{h.Term, w * idf[h.Term] * saturate(&h, d, &avg)})
			}
		}
		if s := sum(parts); s > 0 {
			out = append(out, Scored{Doc: i, Score: s})
		}
	}
	slices.SortStableFunc(out, func(a, b Scored) int { return cmp.Compare(b.Score, a.Score) })
	return out
}

// part is one term's share of a record's score.
type part struct {
	term  string
	score float64
}

// sum adds the parts in term order, so that every way of ranking adds a
// record's parts alike (see [Index.Rank]).
func sum(parts []part) float64 {
	slices.SortFunc(parts, func(a, b part) int { return cmp.Compare(a.term, b.term) })
	s := 0.0
	for _, p := range parts {
		s += p.score
	}
	return s
}

// saturate is BM25F's saturated, length-normalised frequency of one hit.
func saturate(h *Hit, d *DocStats, avg *[NumFields]float64) float64 {
	tf := 0.0
	for f := range NumFields {
		if h.TF[f] == 0 {
			continue
		}
		norm := 1 - B[f] + B[f]*float64(d.Len[f])/avg[f]
		tf += Weights[f] * float64(h.TF[f]) / norm
	}
	return tf / (K1 + tf)
}

// termWeights is the weight of every term the ranking counts: each query
// term that some record holds, and for each one that none holds, the close
// spellings that some record holds.
func (m *Matcher) termWeights(df map[string]int) map[string]float64 {
	w := map[string]float64{}
	for _, t := range m.terms {
		if df[t] > 0 {
			w[t] = 1
			continue
		}
		for c := range df {
			if m.closeTo(c) == t {
				w[c] = max(w[c], FuzzyWeight)
			}
		}
	}
	return w
}
