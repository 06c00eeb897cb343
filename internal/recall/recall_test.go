package recall

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// recallFixture is the five-line mistakes.jsonl of recall.bats.
const recallFixture = `{"ts":"2026-01-01T00:00:00Z","session":"aaa","category":"wrong-action","description":"forgot the quokkafact check before acting","correction":"run the check first","pattern":"skipped-check","severity":"low"}
{"ts":"2026-01-02T00:00:00Z","session":"quokkanoise","category":"x","description":"unrelated","refs":"https://example.com/quokkanoise","severity":"low"}
{"ts":"2026-01-03T00:00:00Z","session":"bbb","category":"wrong-action","description":"read a stale pane in the pickup loop","correction":"re-read","pattern":"stale-pane-read","severity":"low"}
{"ts": "2026-01-04T00:00:00Z", "session": "ccc", "category": "wrong-action", "description": "another quokkafact miss, spaced-json record", "correction": "same fix", "pattern": "skipped-check", "severity": "low"}
{"ts":"2026-01-05T00:00:00Z","session":"ddd","category":"x","description":"docs address uses loopback","pattern":"docs-address","severity":"low"}
`

func recallCount(t *testing.T, terms string) int {
	t.Helper()
	hits, err := Search(strings.NewReader(recallFixture), Terms(terms))
	if err != nil {
		t.Fatal(err)
	}
	return len(hits)
}

func TestRecall(t *testing.T) {
	for terms, want := range map[string]int{
		"quokkafact": 2, "spaced-json": 1, "quokkanoise": 0, "loop": 1, "pickup-loop": 1, "docs-loop": 0,
		"quokkafact pickup-loop": 3, "check-run": 0, "QUOKKAFACT": 2, "(quokkafact)": 2, "quokkafact,": 2,
		"skipped_check": 2, "skipped..check": 2, "zzznope": 0, "a-b": 0,
	} {
		if got := recallCount(t, terms); got != want {
			t.Errorf("--recall %q: %d hits, want %d", terms, got, want)
		}
	}
}

func TestRecallMatch(t *testing.T) {
	for _, tc := range []struct {
		line, term string
		want       bool
	}{
		{`{"pattern":"FOO_BAR"}`, "foo", true},
		{`{"pattern":"FOO_BAR"}`, "foo_bar", true},
		{`{"pattern":"Types"}`, "type", false},
		{`{"meta":{"pattern":"nestedkw"},"pattern":"outer"}`, "nestedkw", true},
		{`{"meta":{"pattern":"nestedkw"},"pattern":"outer"}`, "outer", false},
		{`{"pattern" : "x spaced"}`, "spaced", true},
		{`{"skill":null,"skill":"later"}`, "later", true},
		{`{"what":["arr"]}`, "arr", false},
		{`{"description":"say \"quoted\" twice"}`, "quoted", true},
		{`{"description":"back\\slash"}`, "slash", true},
		{`{"description":"back\\slash"}`, "backslash", false},
		// JSON escapes are decoded.
		{`{"description":"line one\nsecond"}`, "second", true},
		{`{"fix":"tabs\there"}`, "tabs", true},
		{`{"description":"caf\u00e9 au lait"}`, "caf", true},
		{`{"description":"caf\u00e9"}`, "u00e9", false},
		{`{"description":"\u0051uokka"}`, "quokka", true},
		{`{"description":"\ud83d\ude00 smile"}`, "smile", true},
		{`{"description":"\uZZZZ"}`, "uzzzz", true},
		{`{"pattern":"check","correction":"run it"}`, "check-run", false},
		{`{"description":"unterminated value`, "value", true},
		{``, "xx", false},
	} {
		if got := Match([]byte(tc.line), Terms(tc.term)); got != tc.want {
			t.Errorf("Match(%s, %q) = %v", tc.line, tc.term, got)
		}
	}
	if got := Terms("a - . a-b Foo_Bar foo_bar x, (xy)"); !slices.Equal(got, []string{"a-b", "foo_bar", "(xy)"}) {
		t.Errorf("Terms = %q", got)
	}
}

// FuzzRecall: no panic on any line or terms; terms of more than
// MaxParts words in total are refused with a *PartsError and
// nothing else is; and a hit is always a line of the input.
func FuzzRecall(f *testing.F) {
	f.Add([]byte(recallFixture), "quokkafact pickup-loop")
	f.Add([]byte(`{"description":"\ud83d\u"}`), "u")
	f.Fuzz(func(t *testing.T, data []byte, terms string) {
		ts := Terms(terms)
		for _, term := range ts {
			if strings.ContainsAny(term, " \t\n\v\f\rABCDEFGHIJKLMNOPQRSTUVWXYZ") {
				t.Fatalf("bad recall term %q", term)
			}
		}
		words := 0 // runs of [A-Za-z0-9], counted apart from the code under test
		for _, term := range ts {
			words += len(strings.FieldsFunc(term, func(r rune) bool {
				return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9')
			}))
		}
		hits, err := Search(strings.NewReader(string(data)), ts)
		if pe := (*PartsError)(nil); errors.As(err, &pe) {
			if words <= MaxParts || pe.Words != words || hits != nil {
				t.Fatalf("refused %d words (%d counted, %d hits): %v", pe.Words, words, len(hits), err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if words > MaxParts {
			t.Fatalf("%d words searched; at most %d are allowed", words, MaxParts)
		}
		for _, h := range hits {
			if !strings.Contains(string(data), string(h)) || strings.Contains(string(h), "\n") {
				t.Fatalf("hit %q is not a line of the input", h)
			}
		}
	})
}
