package search

import (
	"slices"
	"strings"
	"testing"
)

func TestTermsNormaliseBothSidesAlike(t *testing.T) {
	a := NewAnalyzer(nil)
	for _, c := range []struct{ query, doc string }{
		{"packages", "Package"},
		{"configuring", "configuration"},
		{"café", "CAFE"},
		{"open a PR", "pull request"},
		{"pull requests", "PRs"},
		{"repository", "repo"},
		{"trim suffix", "strings.TrimSuffix"},
		{"http client", "getHTTPClient"},
	} {
		q := a.Terms(c.query)
		var d []string
		a.Each(c.doc, false, func(s string) { d = append(d, s) })
		if !subset(q, d) && !subset(d, q) {
			t.Errorf("query %q %v and record %q %v: neither holds the other's terms", c.query, q, c.doc, d)
		}
	}
}

func subset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

func TestTermsDropStopWordsUnlessNothingElse(t *testing.T) {
	a := NewAnalyzer(nil)
	if got := a.Terms("how do I deploy the site"); !slices.Equal(got, []string{"deploy", "site"}) {
		t.Errorf("got %v", got)
	}
	if got := a.Terms("how to"); len(got) == 0 {
		t.Errorf("a query of stop words only lost every term")
	}
	if got := a.Terms("- ! x"); len(got) != 0 {
		t.Errorf("got %v, want no term", got)
	}
}

func TestStoreAbbreviationsExpand(t *testing.T) {
	extra, err := ParseAbbreviations([]byte("# ours\nsso: single sign-on\n\n"))
	if err != nil {
		t.Fatal(err)
	}
	a := NewAnalyzer(extra)
	if got := a.Terms("SSO"); !slices.Contains(got, "singl") || !slices.Contains(got, "sign") {
		t.Errorf("got %v", got)
	}
	for _, bad := range []string{"no colon here", ": empty", "a b: spaced short"} {
		if _, err := ParseAbbreviations([]byte(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func rank(query string, docs ...Fields) []Scored {
	a := NewAnalyzer(nil)
	m := NewMatcher(a, query)
	w := m.NewWorker(a.Clone())
	stats := make([]*DocStats, len(docs))
	for i := range docs {
		d := w.Doc(&docs[i])
		stats[i] = &d
	}
	return m.Rank(stats)
}

func TestTitleOutranksBody(t *testing.T) {
	got := rank("netlify",
		Fields{Title: "Host on GitHub", Body: "You can deploy to netlify, or netlify drop, or to github pages."},
		Fields{Title: "Host on Netlify", Body: "A host with a CDN."},
		Fields{Title: "Unrelated", Body: "Nothing here."})
	if len(got) != 2 || got[0].Doc != 1 {
		t.Fatalf("got %+v, want doc 1 first, doc 2 absent", got)
	}
}

func TestCloseSpellingFallback(t *testing.T) {
	got := rank("netlfy", Fields{Title: "Host on Netlify"}, Fields{Title: "Host on Render"})
	if len(got) != 1 || got[0].Doc != 0 {
		t.Fatalf("got %+v, want the misspelt record", got)
	}
	// A query term some record holds is not widened.
	got = rank("render", Fields{Title: "Host on Render"}, Fields{Title: "Reader mode"})
	if len(got) != 1 || got[0].Doc != 0 {
		t.Fatalf("got %+v", got)
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"netlify", "netlfiy", 1}, {"abc", "abc", 0}, {"deploy", "deplyo", 1}, {"kitten", "sitting", 3}} {
		if got := editDistance(c.a, c.b, 5); got != c.want {
			t.Errorf("%s %s: %d want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestStatsRoundTrip(t *testing.T) {
	a := NewAnalyzer(nil)
	f := Fields{Title: "Deploy the site", Keywords: "deploy, deployment", Name: "proc.deploy", Body: "deploys deploying site sites zebra"}
	d := a.Stats(&f, map[string]int{})
	want := map[string][NumFields]uint16{}
	for _, h := range d.Hits {
		want[h.Term] = h.TF
	}
	enc := AppendStats(nil, &d)
	r, lens, ok := ReadStats(string(enc))
	if !ok || lens != d.Len {
		t.Fatalf("lens %v %v", lens, ok)
	}
	got := map[string][NumFields]uint16{}
	prev := ""
	for {
		term, tf, ok := r.Next()
		if !ok {
			break
		}
		if term <= prev {
			t.Errorf("%q after %q: not in order", term, prev)
		}
		prev = strings.Clone(term)
		got[prev] = tf
	}
	if !r.OK() || len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %v, want %v", k, got[k], v)
		}
	}
}
