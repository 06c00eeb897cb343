package corpus

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// A Query selects records. Every non-empty field must match (AND). Keyword
// ranks the matches (BM25-lite over the narrowed set, per-kind relative
// floor); without it, matches come in corpus order.
type Query struct {
	Keyword string // ranked search terms (see [QueryTokens])
	Kind    string // kind: equals it
	ID      string // id: equals it
	LinksTo string // one of the link tokens equals it
	Project string // project: equals it, or its part after the last "/" does
	// Limit caps the number of results; 0 means no cap.
	Limit int
	// RelRatio drops a keyword match scoring below RelRatio times the best
	// score of its kind. 0 (or less) keeps every match, so the zero Query
	// has no floor; [NewQuery] sets the default, [DefaultRelRatio].
	RelRatio float64
}

// DefaultRelRatio is the default relative floor of a keyword search.
const DefaultRelRatio = 0.3

// NewQuery returns a Query with the documented defaults: no filter, no
// limit, and the relative floor [DefaultRelRatio].
func NewQuery() Query { return Query{RelRatio: DefaultRelRatio} }

// BM25 constants of the keyword ranking.
const (
	bm25K1 = 1.2
	bm25B  = 0.5
)

// Query runs q over the corpus, reading every corpus file once. It fails
// with a *ScanError when a corpus file cannot be read (even one q would
// not have matched), and with a *NoTokenError when Keyword has no token of
// two or more characters and the structural filters leave something to
// search.
func (c *Corpus) Query(q Query) ([]Record, error) {
	if len(c.entries) == 0 {
		return nil, nil
	}
	qtoks, qidx, ranked := queryTerms(q.Keyword)

	slots := make([]slot, len(c.entries))
	type worker struct {
		v    recView
		toks []string
		seen map[string]struct{}
		crlf []byte
	}
	err := c.scanAll(func() any { return &worker{seen: map[string]struct{}{}} }, func(i int, content []byte, capped bool, wa any) {
		w := wa.(*worker)
		s := &slots[i]
		v := &w.v
		if !v.parseHead(content, capped, &w.crlf) || !v.structural(q) {
			return
		}
		s.narrowed = true
		if q.Keyword != "" {
			// dl and the matched query tokens, in keyword-list order.
			// A set keeps the de-duplication linear in the tokens.
			w.toks = w.toks[:0]
			clear(w.seen)
			v.eachLeaf("keywords", func(b []byte) {
				eachAlnumToken(b, true, func(tok []byte) {
					if _, dup := w.seen[string(tok)]; dup {
						return
					}
					t := string(tok)
					w.seen[t] = struct{}{}
					w.toks = append(w.toks, t)
				})
			})
			s.dl = len(w.toks)
			for _, t := range w.toks {
				if k, ok := qidx[t]; ok {
					s.matched = append(s.matched, k)
				}
			}
			if len(s.matched) == 0 {
				return
			}
		}
		s.rec = recordOf(c.entries[i].path, v)
	})
	if err != nil {
		return nil, err
	}

	n := 0
	for i := range slots {
		if slots[i].narrowed {
			n++
		}
	}
	return answer(slots, n, len(qtoks), ranked, q)
}

// slot is what the scan keeps of one corpus file.
type slot struct {
	narrowed bool    // non-empty and passed the structural filters
	dl       int     // distinct keyword tokens
	matched  []int32 // query-token indices, in keyword-list order
	rec      *Record // set for structural results and keyword candidates
}

func recordOf(path string, v *recView) *Record {
	r := &Record{
		Path:    path,
		ID:      string(v.scalar("id")),
		Kind:    string(v.scalar("kind")),
		Project: string(v.scalar("project")),
		Status:  string(v.scalar("status")),
		Gloss:   gloss(v.body, v.present && !v.terminated),
	}
	v.eachLeaf("keywords", func(b []byte) { r.Keywords = append(r.Keywords, string(b)) })
	v.eachLink(func(t []byte) { r.Links = append(r.Links, string(t)) })
	return r
}

// round6 rounds like upstream's "%.6f" text round trip.
func round6(x float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 6, 64), 64)
	return r
}

// rank scores the keyword candidates among the narrowed slots (n of them),
// sorts them (score descending, path ascending, stable) and applies the
// per-kind relative floor.
func rank(slots []slot, ntok, n int, relRatio float64) []Record {
	df := make([]int, ntok)
	sumdl := 0
	for i := range slots {
		s := &slots[i]
		if !s.narrowed {
			continue
		}
		sumdl += s.dl
		for _, k := range s.matched {
			df[k]++
		}
	}
	N := float64(n)
	idf := make([]float64, ntok)
	for k, d := range df {
		fd := float64(d)
		idf[k] = round6(math.Log(1 + (N-fd+0.5)/(fd+0.5)))
	}
	avgdl := round6(float64(sumdl) / N)
	if avgdl <= 0 {
		avgdl = 1
	}
	k1, b := float64(bm25K1), float64(bm25B)
	var cands []Record
	for i := range slots {
		s := &slots[i]
		if !s.narrowed || len(s.matched) == 0 {
			continue
		}
		raw := 0.0
		for _, k := range s.matched {
			raw += idf[k]
		}
		// Explicit float64 conversions keep each product rounded on its
		// own (no fused multiply-add), as awk evaluates it.
		ratio := float64(s.dl) / avgdl
		inner := (1 - b) + float64(b*ratio)
		norm := (k1 + 1) / (float64(k1*inner) + 1)
		r := *s.rec
		r.Score = float64(raw * norm)
		cands = append(cands, r)
	}
	slices.SortStableFunc(cands, func(x, y Record) int {
		switch {
		case x.Score > y.Score:
			return -1
		case x.Score < y.Score:
			return 1
		}
		return strings.Compare(x.Path, y.Path)
	})
	top := make(map[string]float64)
	out := cands[:0]
	for _, r := range cands {
		bucket := r.Kind
		if bucket == "" {
			bucket = "(unknown)"
		}
		t, seen := top[bucket]
		if !seen {
			top[bucket], t = r.Score, r.Score
		}
		if r.Score < float64(relRatio*t) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// answer turns the narrowed slots (n of them) into the query's result: the
// ranked hits for a keyword with tokens, else the narrowed records in corpus
// order; then the limit. The scan and the index share it.
func answer(slots []slot, n, nq int, ranked bool, q Query) ([]Record, error) {
	if n == 0 {
		return nil, nil
	}
	if q.Keyword != "" && !ranked {
		return nil, &NoTokenError{Keyword: q.Keyword}
	}
	var out []Record
	if ranked {
		out = rank(slots, nq, n, q.RelRatio)
	} else {
		out = make([]Record, 0, n)
		for i := range slots {
			if slots[i].narrowed {
				out = append(out, *slots[i].rec)
			}
		}
	}
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[:q.Limit]
	}
	return out, nil
}

// queryTerms is a keyword's tokens, each token's position, and whether the
// query is ranked (a keyword with at least one token).
func queryTerms(keyword string) (qtoks []string, qidx map[string]int32, ranked bool) {
	if keyword != "" {
		qtoks = QueryTokens(keyword)
	}
	qidx = make(map[string]int32, len(qtoks))
	for i, t := range qtoks {
		qidx[t] = int32(i)
	}
	return qtoks, qidx, keyword != "" && len(qtoks) > 0
}
