package search

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestIndexRanksAsTheMatcher: the inverted index gives the scan's ranking,
// score for score, for queries whose terms some record holds.
func TestIndexRanksAsTheMatcher(t *testing.T) {
	words := strings.Fields("deploy site netlify github pages template partial menu page list sort filter date format string trim image resize crop build server module theme config")
	rng := rand.New(rand.NewPCG(1, 2))
	text := func(n int) string {
		var b []string
		for range n {
			b = append(b, words[rng.IntN(len(words))])
		}
		return strings.Join(b, " ")
	}
	docs := make([]Fields, 200)
	for i := range docs {
		docs[i] = Fields{Title: text(3), Keywords: text(rng.IntN(3)), Name: text(2), Body: text(rng.IntN(60))}
	}
	a := NewAnalyzer(nil)
	all := make([]*DocStats, len(docs))
	at := map[string]int{}
	for i := range docs {
		d := a.Stats(&docs[i], at)
		all[i] = &d
	}
	encs := make([]string, len(all))
	for i, d := range all {
		encs[i] = string(AppendStats(nil, d))
	}
	ixOf, err := NewIndexOf(encs)
	if err != nil {
		t.Fatal(err)
	}
	for _, ix := range []*Index{NewIndex(all), ixOf} {
		ranksAsTheMatcher(t, ix, a, docs, text)
	}
}

func ranksAsTheMatcher(t *testing.T, ix *Index, a *Analyzer, docs []Fields, text func(int) string) {
	t.Helper()
	for q := range 100 {
		query := text(1 + q%5)
		m := NewMatcher(a, query)
		w := m.NewWorker(a.Clone())
		stats := make([]*DocStats, len(docs))
		for i := range docs {
			d := w.Doc(&docs[i])
			stats[i] = &d
		}
		want := m.Rank(stats)
		got := ix.Rank(m.Terms())
		if !slices.Equal(got, want) {
			t.Fatalf("%q: index %v, scan %v", query, got[:min(5, len(got))], want[:min(5, len(want))])
		}
		for k := 0; k < min(len(want), 20); k++ {
			if p := ix.Position(m.Terms(), want[k].Doc); p != k+1 {
				t.Fatalf("%q: doc %d at %d, Position says %d", query, want[k].Doc, k+1, p)
			}
		}
	}
}

func TestReachingTermsRankTheRecord(t *testing.T) {
	docs := []Fields{
		{Title: "Host on Netlify", Body: "netlify toml build command"},
		{Title: "Host on GitHub", Body: "github pages workflow"},
		{Title: "Host on GitLab", Body: "gitlab pages pipeline"},
	}
	a := NewAnalyzer(nil)
	all := make([]*DocStats, len(docs))
	for i := range docs {
		d := a.Stats(&docs[i], map[string]int{})
		all[i] = &d
	}
	ix := NewIndex(all)
	// "host" ranks all three alike: the last one only third.
	got := ix.Reaching(string(AppendStats(nil, all[2])), 2, 1)
	if !slices.Contains(got, "gitlab") || slices.Contains(got, "host") {
		t.Errorf("got %v", got)
	}
}
