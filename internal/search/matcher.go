package search

import "strings"

// A Matcher is one query, ready to collect the statistics of records
// ([Matcher.Doc]) and to rank them ([Matcher.Rank]). Its methods may be
// called from several goroutines, each with its own [Analyzer].
type Matcher struct {
	terms []string
	query map[string]bool
}

// NewMatcher analyses a query text. It has no terms (see [Matcher.Terms])
// when the text has no word of two or more characters (or digits).
func NewMatcher(a *Analyzer, text string) *Matcher {
	m := &Matcher{terms: a.Terms(text), query: map[string]bool{}}
	for _, t := range m.terms {
		m.query[t] = true
	}
	return m
}

// Terms is the query's distinct terms.
func (m *Matcher) Terms() []string { return m.terms }

// A Worker collects records' statistics for one goroutine: its own
// [Analyzer] and caches.
type Worker struct {
	m     *Matcher
	a     *Analyzer
	close map[string]bool // record terms seen: whether a hit
	at    map[string]int
}

// maxCloseCache bounds a worker's cache of terms seen.
const maxCloseCache = 1 << 16

// NewWorker returns a worker analysing with a (which it alone uses).
func (m *Matcher) NewWorker(a *Analyzer) *Worker {
	return &Worker{m: m, a: a, close: map[string]bool{}, at: map[string]int{}}
}

// Doc analyses one record's fields and returns its statistics: field
// lengths, and the frequencies of the query's terms and of the record's
// terms close to one of them.
func (w *Worker) Doc(f *Fields) DocStats {
	var d DocStats
	clear(w.at)
	for field := range NumFields {
		w.a.Each(f[field], false, func(t string) {
			d.Len[field]++
			if !w.hit(t) {
				return
			}
			i, ok := w.at[t]
			if !ok {
				i = len(d.Hits)
				w.at[t] = i
				d.Hits = append(d.Hits, Hit{Term: t})
			}
			if d.Hits[i].TF[field] < 0xffff {
				d.Hits[i].TF[field]++
			}
		})
	}
	return d
}

// hit reports whether t is a query term or a close spelling of one.
func (w *Worker) hit(t string) bool {
	if w.m.query[t] {
		return true
	}
	h, ok := w.close[t]
	if !ok {
		h = w.m.closeTo(t) != ""
		if len(w.close) >= maxCloseCache {
			clear(w.close)
		}
		w.close[strings.Clone(t)] = h // t may be a reader's reused buffer
	}
	return h
}

// closeTo is the query term that t is a close spelling of, or "": within
// one edit (insertion, deletion, substitution or transposition of two
// neighbours) of a query term of four to seven bytes, two of a longer one.
// Shorter terms have no close spellings.
func (m *Matcher) closeTo(t string) string {
	if m.query[t] {
		return ""
	}
	for _, q := range m.terms {
		k := maxEdits(q)
		if k == 0 || len(t) < 4 || abs(len(t)-len(q)) > k {
			continue
		}
		if editDistance(q, t, k) <= k {
			return q
		}
	}
	return ""
}

func maxEdits(q string) int {
	switch {
	case len(q) < 4:
		return 0
	case len(q) < 8:
		return 1
	}
	return 2
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// editDistance is the optimal-string-alignment distance of a and b (bytes),
// or k+1 once it is certainly above k.
func editDistance(a, b string, k int) int {
	n, m := len(a), len(b)
	if n > MaxTermLen || m > MaxTermLen {
		return k + 1
	}
	var rows [3][MaxTermLen + 1]int
	prev2, prev, cur := &rows[0], &rows[1], &rows[2]
	for j := 0; j <= m; j++ {
		prev[j] = j
	}
	for i := 1; i <= n; i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= m; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			best = min(best, v)
		}
		if best > k {
			return k + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[m]
}
