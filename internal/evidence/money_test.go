package evidence

import (
	"encoding/json"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The fixture's 18 main turns are on claude-sonnet-4-5 (1,800 input and
// 360 output tokens: $0.0054 + $0.0054, what ccusage reports); the forks'
// claude-sonnet-5-5 is in no price table: named, counted, not priced.
func TestMoneyFixture(t *testing.T) {
	r := sweep(t, Options{Projects: filepath.Join("testdata", "nested"), Location: time.UTC})
	tot := r.Totals
	if tot.Input != 2700 || tot.Output != 540 || tot.TotalTokens != 3240 || tot.Turns != 27 || tot.UnpricedTurns != 9 {
		t.Errorf("totals %+v", tot)
	}
	if math.Abs(tot.CostUSD-0.0108) > 1e-12 {
		t.Errorf("cost %v, want 0.0108", tot.CostUSD)
	}
	if want := []Unpriced{{Model: "claude-sonnet-5-5", Turns: 9, Tokens: 1080}}; !reflect.DeepEqual(r.Unpriced, want) {
		t.Errorf("unpriced %+v, want %+v", r.Unpriced, want)
	}
	for _, v := range Views {
		rows := r.Views[v]
		var in, out int64
		var usd float64
		for _, row := range rows {
			in += row.Input
			out += row.Output
			usd += row.CostUSD
		}
		if in != 2700 || out != 540 || math.Abs(usd-0.0108) > 1e-12 {
			t.Errorf("view %s: rows sum to %d/%d/$%v", v, in, out, usd)
		}
	}
	if got := r.Views["week"][0].Key; got != "2026-11-30" { // 2026-12-01 is a Tuesday
		t.Errorf("week %q, want the Monday 2026-11-30", got)
	}
	if got := r.Views["session"]; len(got) != 1 || got[0].Key != fixtureSession {
		t.Errorf("sessions %+v: forks count under their parent session", got)
	}
	if tot.First != "2026-12-01T19:30:32.455Z" {
		t.Errorf("first turn %q", tot.First)
	}
}

// Each bucket is priced on its own; sonnet 4.5's tokens past 200,000 in
// one turn cost the higher rate, bucket by bucket; the one-hour cache write
// has its own rate; a fast turn is multiplied; a date suffix, a provider
// prefix and a bracketed variant find the model, nothing else does.
func TestPrices(t *testing.T) {
	p := DefaultPrices()
	cases := []struct {
		model string
		t     turnRow
		want  float64
		ok    bool
	}{
		{"claude-opus-4-6", turnRow{u: [4]int64{1e6, 0, 0, 0}}, 5, true},
		{"claude-opus-4-6", turnRow{u: [4]int64{0, 1e6, 0, 0}, h1: 3e5}, 0.7e6*6.25/1e6 + 3, true},
		{"claude-opus-4-6", turnRow{u: [4]int64{1e6, 0, 0, 1e6}, fast: true}, 180, true},
		{"claude-opus-4-5", turnRow{u: [4]int64{1e6, 0, 0, 0}, fast: true}, 5, true},
		{"claude-sonnet-4-5-20250929", turnRow{u: [4]int64{1e6, 0, 0, 0}}, 5.4, true},
		{"claude-sonnet-4-5", turnRow{u: [4]int64{150000, 0, 150000, 0}}, 0.495, true},
		{"claude-sonnet-4-5", turnRow{u: [4]int64{0, 1e6, 0, 0}, h1: 5e5}, 7.8, true},
		{"anthropic/claude-haiku-4-5", turnRow{u: [4]int64{0, 0, 0, 1e6}}, 5, true},
		{"claude-opus-4-6[1m]", turnRow{u: [4]int64{0, 0, 1e6, 0}}, 0.5, true},
		{"claude-sonnet-5-5", turnRow{}, 0, false},
		{"claude-opus-4-5-foo", turnRow{}, 0, false},
		{"Claude-Opus-4-5", turnRow{}, 0, false},
	}
	for _, c := range cases {
		pr, ok := p.lookup(c.model)
		if ok != c.ok {
			t.Errorf("%s: priced %v, want %v", c.model, ok, c.ok)
			continue
		}
		if ok {
			if got := pr.cost(&c.t); math.Abs(got-c.want) > 1e-9 {
				t.Errorf("%s %+v: $%v, want $%v", c.model, c.t, got, c.want)
			}
		}
	}
}

// Counts that cannot be summed skip their row whole (as ccusage does) and
// are counted by reason; sums saturate instead of wrapping.
func TestHonestCounts(t *testing.T) {
	dir := t.TempDir()
	row := func(id, in string) string {
		return `{"type":"assistant","timestamp":"2026-01-01T00:00:00Z","sessionId":"s","requestId":"` + id +
			`","message":{"id":"` + id + `","model":"claude-opus-4-5","usage":{"input_tokens":` + in + `,"output_tokens":10}}}` + "\n"
	}
	write(t, filepath.Join(dir, "p", "s.jsonl"), strings.Join([]string{
		row("a", "100"), row("b", "-50"), row("c", "1.5"), row("d", "1e3"),
		row("e", "9000000000000000000"), row("f", "99999999999999999999"),
		row("g", `"12"`), row("h", "null"),
	}, ""))
	r := sweep(t, Options{Projects: dir})
	want := Skipped{NegativeCounts: 1, FractionalCounts: 2, AbsurdCounts: 2, InvalidCounts: 2, UnknownTypes: map[string]int{}}
	if !reflect.DeepEqual(r.Skipped, want) {
		t.Errorf("skipped %+v, want %+v", r.Skipped, want)
	}
	if r.Totals.Input != 100 || r.Totals.Output != 10 || r.Saturated {
		t.Errorf("totals %+v saturated %v", r.Totals, r.Saturated)
	}
	var sum int64 = math.MaxInt64 - 5
	if !addSat(&sum, 10) || sum != math.MaxInt64 {
		t.Errorf("addSat wrapped: %d", sum)
	}
}

// The summary fits one screen however long the history: at most topN
// sessions, skills, models, unpriced models and off-pin pairs.
func TestSummaryOneScreen(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for s := range 200 {
		for m := range 3 {
			b.WriteString(`{"type":"assistant","sessionId":"s` + itoa(s) + `","timestamp":"2026-01-0` + itoa(1+s%9) + `T00:00:00Z","requestId":"r` + itoa(s) + `-` + itoa(m) +
				`","message":{"id":"m` + itoa(s) + `-` + itoa(m) + `","model":"model-` + itoa(s%40) + `","usage":{"input_tokens":10}}}` + "\n")
		}
		write(t, filepath.Join(dir, "p", "s"+itoa(s)+".jsonl"), b.String())
		b.Reset()
	}
	r := sweep(t, Options{Projects: dir, Location: time.UTC})
	var out strings.Builder
	if err := r.WriteSummary(&out, true); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "\n"); n > 40 {
		t.Errorf("the summary of 200 sessions on 40 unpriced models is %d lines:\n%s", n, out.String())
	}
	if !strings.Contains(out.String(), "and 35 more (--json lists all)") || !strings.Contains(out.String(), "(top 5 of 200: --by session lists all)") {
		t.Errorf("the summary does not say what it left out:\n%s", out.String())
	}
}

// When the usage splits the cache write by lifetime, the cache write is
// the two parts, whatever cache_creation_input_tokens says (ccusage
// 20.0.24 counts 300,000 tokens, $3, for this row of claude-opus-4-6).
func TestCacheWriteSplit(t *testing.T) {
	var ru rawUsage
	if err := json.Unmarshal([]byte(`{"cache_creation_input_tokens":1000000,"cache_creation":{"ephemeral_1h_input_tokens":300000}}`), &ru); err != nil {
		t.Fatal(err)
	}
	u, ok := ru.read(&Skipped{})
	if !ok || u.u[1] != 300000 || u.h1 != 300000 {
		t.Fatalf("read %+v %v: want a 300,000-token cache write, all of it one-hour", u, ok)
	}
	pr, _ := DefaultPrices().lookup("claude-opus-4-6")
	if got := pr.cost(&turnRow{u: u.u, h1: u.h1}); math.Abs(got-3) > 1e-9 {
		t.Errorf("$%v, want $3", got)
	}
}
