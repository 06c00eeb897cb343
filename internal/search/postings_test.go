package search

import (
	"bytes"
	"errors"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// invertedDocs analyses random records and returns each one's encoded
// statistics (nil: a record without terms) and, by term, its postings.
func invertedDocs(seed uint64, n int) ([]string, map[string][]Posting) {
	words := strings.Fields("deploy site netlify github pages template partial menu page list sort filter date format string trim image resize crop build server module theme config x1 zz")
	rng := rand.New(rand.NewPCG(seed, 3))
	text := func(k int) string {
		var b []string
		for range k {
			b = append(b, words[rng.IntN(len(words))])
		}
		return strings.Join(b, " ")
	}
	a := NewAnalyzer(nil)
	at := map[string]int{}
	encs := make([]string, n)
	want := map[string][]Posting{}
	for i := range encs {
		if rng.IntN(7) == 0 {
			continue
		}
		f := Fields{Title: text(3), Keywords: text(rng.IntN(3)), Name: text(2), Body: text(rng.IntN(40))}
		d := a.Stats(&f, at)
		encs[i] = string(AppendStats(nil, &d))
		for _, h := range d.Hits {
			want[h.Term] = append(want[h.Term], Posting{Entry: i, TF: h.TF})
		}
	}
	return encs, want
}

// writeInverted is the inverted file of encs, merged onto old (renumbered
// by renumber) when old is not nil.
func writeInverted(t *testing.T, n int, encs []string, old *Inverted, renumber []int32) *Inverted {
	t.Helper()
	iv := NewInverter()
	for i, e := range encs {
		if e != "" && !iv.Add(i, e) {
			t.Fatalf("entry %d: malformed statistics", i)
		}
	}
	var b bytes.Buffer
	if err := Merge(NewPostingsWriter(&b, n), old, renumber, iv); err != nil {
		t.Fatal(err)
	}
	v, err := OpenInverted(b.String())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// readAll is every term's postings, read through Each, checking that
// Lookup finds the same.
func readAll(v *Inverted) (map[string][]Posting, error) {
	got := map[string][]Posting{}
	var bad error
	err := v.Each(func(term string, pl PostingList) bool {
		var ps []Posting
		if bad = pl.Each(func(p Posting) { ps = append(ps, p) }); bad != nil {
			return false
		}
		got[strings.Clone(term)] = ps
		return true
	})
	if err == nil {
		err = bad
	}
	if err != nil {
		return nil, err
	}
	for term, ps := range got {
		pl, ok, err := v.Lookup(term)
		if err != nil || !ok || pl.DF() != len(ps) {
			return nil, errors.New("lookup of " + term + " differs")
		}
	}
	return got, nil
}

// The inverted file gives back, for every term, the entries holding it
// with their frequencies, and nothing for a term no entry holds; past 64
// terms the dictionary spans several blocks.
func TestInvertedRoundTrip(t *testing.T) {
	for _, n := range []int{1, 30, 400} {
		encs, want := invertedDocs(uint64(n), n)
		v := writeInverted(t, n, encs, nil, nil)
		got, err := readAll(v)
		if err != nil {
			t.Fatal(err)
		}
		if !maps.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("%d entries: the postings read differ from those written", n)
		}
		for _, absent := range []string{"", "a", "zzzz", "\xff"} {
			if _, ok, err := v.Lookup(absent); ok || err != nil {
				t.Fatalf("%q found (%v)", absent, err)
			}
		}
	}
	many := make([]string, 300) // a dictionary of several blocks
	for i := range many {
		many[i] = string(AppendStats(nil, &DocStats{Hits: []Hit{{Term: "t" + string(rune('a'+i%26)) + strings.Repeat("q", i/26), TF: [NumFields]uint16{1}}}}))
	}
	v := writeInverted(t, len(many), many, nil, nil)
	if len(v.blocks) < 2 {
		t.Fatalf("%d blocks", len(v.blocks))
	}
	if got, err := readAll(v); err != nil || len(got) != 300 {
		t.Fatalf("%d terms, %v", len(got), err)
	}
}

// Merging keeps the loaded postings of the entries kept, renumbered, and
// adds those of the entries read again: the same file as one built from
// scratch of the final entries.
func TestInvertedMergeIsARebuild(t *testing.T) {
	encs, _ := invertedDocs(7, 200)
	old := writeInverted(t, len(encs), encs, nil, nil)
	rng := rand.New(rand.NewPCG(9, 9))
	newer, _ := invertedDocs(8, 200)
	var final, fresh []string
	renumber := make([]int32, len(encs))
	for j := range encs {
		renumber[j] = -1
		switch rng.IntN(4) {
		case 0: // dropped
		case 1: // read again, changed
			final, fresh = append(final, newer[j]), append(fresh, newer[j])
		default: // kept as loaded
			renumber[j] = int32(len(final))
			final, fresh = append(final, encs[j]), append(fresh, "")
		}
		if rng.IntN(5) == 0 { // a new entry
			final, fresh = append(final, newer[len(newer)-1-j]), append(fresh, newer[len(newer)-1-j])
		}
	}
	merged, err := readAll(writeInverted(t, len(final), fresh, old, renumber))
	if err != nil {
		t.Fatal(err)
	}
	rebuilt, err := readAll(writeInverted(t, len(final), final, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	if !maps.EqualFunc(merged, rebuilt, slices.Equal) {
		t.Fatal("the merged postings differ from a rebuild")
	}
}

// Every part a search reads is checked: a bit flipped anywhere in the file
// is refused when the file is opened or when the part holding it is read.
func TestInvertedRefusesEveryFlippedBit(t *testing.T) {
	encs, _ := invertedDocs(5, 12)
	var b bytes.Buffer
	iv := NewInverter()
	for i, e := range encs {
		if e != "" {
			iv.Add(i, e)
		}
	}
	if err := Merge(NewPostingsWriter(&b, len(encs)), nil, nil, iv); err != nil {
		t.Fatal(err)
	}
	good := b.Bytes()
	for i := range good {
		for bit := range 8 {
			bad := bytes.Clone(good)
			bad[i] ^= 1 << bit
			v, err := OpenInverted(string(bad))
			if err == nil {
				_, err = readAll(v)
			}
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("byte %d bit %d flipped: not refused (%v)", i, bit, err)
			}
		}
	}
}

// Whatever its bytes, an inverted file is read without a panic and
// without reading outside it.
func FuzzOpenInverted(f *testing.F) {
	encs, _ := invertedDocs(5, 12)
	iv := NewInverter()
	for i, e := range encs {
		if e != "" {
			iv.Add(i, e)
		}
	}
	var b bytes.Buffer
	Merge(NewPostingsWriter(&b, len(encs)), nil, nil, iv)
	f.Add(b.Bytes())
	f.Add([]byte(invMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		if v, err := OpenInverted(string(data)); err == nil {
			readAll(v)
			v.Lookup("page")
		}
	})
}
