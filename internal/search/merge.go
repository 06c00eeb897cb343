package search

import (
	"slices"
	"strings"
)

// An Inverter inverts records' term statistics (see [AppendStats]) in
// memory, each term's postings encoded as the inverted file stores them:
// the records a search read again, on their way into its index file.
type Inverter struct {
	lists map[string]*plist
}

type plist struct {
	b        []byte
	last, df int
}

// NewInverter returns an empty Inverter.
func NewInverter() *Inverter { return &Inverter{lists: map[string]*plist{}} }

// Add adds the statistics enc of entry; entries are added in increasing
// order. It reports whether enc was well formed (else it added part of
// it: the caller gives the Inverter up).
func (iv *Inverter) Add(entry int, enc string) bool {
	r, _, ok := ReadStats(enc)
	if !ok {
		return false
	}
	for {
		t, tf, ok := r.Next()
		if !ok {
			break
		}
		l := iv.lists[t]
		if l == nil {
			l = &plist{last: -1}
			iv.lists[strings.Clone(t)] = l
		}
		if entry <= l.last {
			return false
		}
		l.b = appendPosting(l.b, l.last, Posting{Entry: entry, TF: tf})
		l.last = entry
		l.df++
	}
	return r.OK()
}

// Merge writes to pw, in term order, every term of old and of iv, each
// with its postings merged in entry order: old's entries renumbered by
// renumber (by old entry: the new number, or -1 to drop it; the kept ones
// in the same order), iv's as added. old may be nil. It fails with
// [ErrCorrupt] when a part of old is, or with pw's error.
func Merge(pw *PostingsWriter, old *Inverted, renumber []int32, iv *Inverter) error {
	fresh := make([]string, 0, len(iv.lists))
	for t := range iv.lists {
		fresh = append(fresh, t)
	}
	slices.Sort(fresh)
	var olds, merged []Posting
	k := 0
	emitFresh := func(upTo string) { // the fresh terms before upTo
		for k < len(fresh) && fresh[k] < upTo {
			merged = iv.postings(fresh[k], merged[:0])
			pw.Add(fresh[k], merged)
			k++
		}
	}
	var bad error
	if old != nil {
		err := old.Each(func(t string, pl PostingList) bool {
			emitFresh(t)
			olds = olds[:0]
			bad = pl.Each(func(p Posting) {
				if p.Entry < len(renumber) && renumber[p.Entry] >= 0 {
					p.Entry = int(renumber[p.Entry])
					olds = append(olds, p)
				}
			})
			if bad != nil {
				return false
			}
			merged = merged[:0]
			if k < len(fresh) && fresh[k] == t {
				merged = mergeByEntry(merged, olds, iv.postings(t, nil))
				k++
			} else {
				merged = append(merged, olds...)
			}
			pw.Add(t, merged)
			return true
		})
		if bad == nil {
			bad = err
		}
		if bad != nil {
			return bad
		}
	}
	for ; k < len(fresh); k++ {
		merged = iv.postings(fresh[k], merged[:0])
		pw.Add(fresh[k], merged)
	}
	return pw.Close()
}

// postings appends term t's postings to ps.
func (iv *Inverter) postings(t string, ps []Posting) []Posting {
	l := iv.lists[t]
	if l == nil {
		return ps
	}
	eachPosting(string(l.b), l.df, l.last+1, func(p Posting) { ps = append(ps, p) })
	return ps
}

// mergeByEntry appends a and b, each in entry order, to out in entry
// order.
func mergeByEntry(out, a, b []Posting) []Posting {
	for len(a) > 0 && len(b) > 0 {
		if a[0].Entry < b[0].Entry {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}
