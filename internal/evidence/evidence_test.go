package evidence

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/gatelog"
)

const fixtureSession = "ff360e2a-9cbc-4078-9325-f8fb85bd222d"

func sweep(t *testing.T, o Options) *Report {
	t.Helper()
	r, err := Sweep(o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The shared fixture, counted by hand (jq over the files, README of
// testdata): the main thread has 18 assistant turns on claude-sonnet-4-5,
// each 100 input and 20 output tokens; three how-do-i forks of two turns
// and three am-i-done forks of one turn, all on claude-sonnet-5-5, with
// the same usage. 27 turns: 2,700 input and 540 output tokens, as ccusage
// reports. Each how-do-i fork ran session-digest-read once; the second and
// third read back prior digests 1 (and 2); none ran query-records. Turns
// 1 and 2 were denied once by how-do-i-gate; turns 1-3 were blocked once
// by the Stop gate and released on the next Stop.
func wantFixture() *Report {
	return &Report{
		Files: 7, Sessions: 1, Forks: 6,
		Tier: []TierRow{
			{Skill: "main", Model: "claude-sonnet-4-5", Turns: 18, Invocations: 1},
			{Skill: "procedures:am-i-done", Model: "claude-sonnet-5-5", Turns: 3, Invocations: 3},
			{Skill: "procedures:how-do-i", Model: "claude-sonnet-5-5", Turns: 6, Invocations: 3},
		},
		Cost: []CostRow{
			{Scope: "main", Era: "all", Input: 1800, Output: 360, Weighted: 3600, Turns: 18, Invocations: 1, PerTurn: 200,
				Models: map[string]float64{"claude-sonnet-4-5": 1}},
			{Scope: "procedures:am-i-done", Era: "all", Input: 300, Output: 60, Weighted: 600, Turns: 3, Invocations: 3, PerTurn: 200,
				Models: map[string]float64{"claude-sonnet-5-5": 1}},
			{Scope: "procedures:how-do-i", Era: "all", Input: 600, Output: 120, Weighted: 1200, Turns: 6, Invocations: 3, PerTurn: 200,
				Models: map[string]float64{"claude-sonnet-5-5": 1}},
		},
		Retrieval: Retrieval{Forks: 3, Compliant: 0, NoQuery: 3, Unexpanded: 0, QueryRecords: 0, SingleCat: 0, Violations: []Violation{}},
		Warm: Warm{Sessions: 1, Forks: 3, DigestReads: 3, WarmReads: 2, DigestsWritten: 3, TypedWithoutDigest: 0,
			Overlap: []Overlap{
				{Session: fixtureSession, Earlier: "a4edf241f2b1893fc", Later: "aafeea2917dff51ce"},
				{Session: fixtureSession, Earlier: "aafeea2917dff51ce", Later: "a8ba1fc60a5ad56c0"},
			}},
		Gates: Gates{Denials: 2, StopBlocks: 3, Releases: 3,
			Sessions: []GateSession{{Session: fixtureSession, Denials: 2, StopBlocks: 3, Releases: 3}}},
		Skipped: Skipped{UnknownTypes: map[string]int{}},
	}
}

func check(t *testing.T, got, want *Report) {
	t.Helper()
	got.Lines, got.Bytes = 0, 0
	// The money and time sections and the turn times are checked on their
	// own (TestMoneyFixture).
	got.Totals, got.Views, got.Unpriced, got.PricesDate, got.NoPin = UsageRow{}, nil, nil, "", false
	for i := range got.Tier {
		got.Tier[i].FirstTurn, got.Tier[i].LastTurn, got.Tier[i].PinFrom = "", "", ""
	}
	g, _ := json.MarshalIndent(got, "", " ")
	w, _ := json.MarshalIndent(want, "", " ")
	if string(g) != string(w) {
		t.Errorf("report:\n%s\nwant:\n%s", g, w)
	}
}

func TestFixtureHandCount(t *testing.T) {
	for _, layout := range []string{"nested", "flat"} {
		t.Run(layout, func(t *testing.T) {
			check(t, sweep(t, Options{Projects: filepath.Join("testdata", layout)}), wantFixture())
		})
	}
}

func TestTokenTotals(t *testing.T) {
	// Pinned independently of ccusage: what ccusage 20.0.24 reported for
	// this directory (`ccusage session --json --offline`).
	for _, layout := range []string{"nested", "flat"} {
		in, out := totals(sweep(t, Options{Projects: filepath.Join("testdata", layout)}))
		if in != 2700 || out != 540 {
			t.Errorf("%s: input %d output %d, want 2700 540", layout, in, out)
		}
	}
}

func totals(r *Report) (in, out int64) {
	for _, c := range r.Cost {
		in += c.Input
		out += c.Output
	}
	return in, out
}

func TestPinAndSplit(t *testing.T) {
	split := time.Date(2026, 12, 1, 19, 30, 34, 0, time.UTC)
	r := sweep(t, Options{Projects: "testdata/nested", SplitAt: split, Skill: "how-do-i",
		Pins: map[string]string{"procedures:how-do-i": "opus"}})
	if len(r.Tier) != 1 || r.Tier[0].LastOffPin != "2026-12-01T19:30:34.775Z" || r.Tier[0].Pin != "opus" {
		t.Errorf("tier %+v, want one how-do-i row off the opus pin last at 19:30:34.775Z", r.Tier)
	}
	// Forks of turns 1 and 2 (two turns each) before, turn 3's after.
	var eras []string
	for _, c := range r.Cost {
		eras = append(eras, c.Era+":"+itoa(c.Turns)+"/"+itoa(c.Invocations))
	}
	if got := strings.Join(eras, " "); got != "before:4/2 after:2/1" {
		t.Errorf("eras %q, want before:4/2 after:2/1", got)
	}
	r = sweep(t, Options{Projects: "testdata/nested", Pins: map[string]string{"procedures:how-do-i": "sonnet"}})
	for _, tr := range r.Tier {
		if tr.LastOffPin != "" {
			t.Errorf("%+v: a sonnet pin holds for claude-sonnet-5-5", tr)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestWindowAndSession(t *testing.T) {
	r := sweep(t, Options{Projects: "testdata/nested", Session: "other"})
	if r.Forks != 0 || len(r.Cost) != 0 {
		t.Errorf("--session other: %d forks, cost %+v", r.Forks, r.Cost)
	}
	r = sweep(t, Options{Projects: "testdata/nested", Until: time.Date(2026, 12, 1, 19, 30, 33, 0, time.UTC)})
	if in, _ := totals(r); in != 100*(6+2+1) { // turn 1: 6 main turns, one how-do-i fork (2), one am-i-done fork (1)
		t.Errorf("--until turn 2: input %d", in)
	}
}

// A streamed message written as several rows (one per content block)
// sharing message.id and requestId is one turn, counted from its largest
// row, across files; rows without requestId merge only with each other.
func TestTurnDedup(t *testing.T) {
	dir := t.TempDir()
	a := func(id, req string, in, out int) string {
		r := `{"type":"assistant","timestamp":"2026-01-01T00:00:00Z","sessionId":"s"`
		if req != "" {
			r += `,"requestId":"` + req + `"`
		}
		return r + `,"message":{"id":"` + id + `","model":"m","usage":{"input_tokens":` + itoa(in) + `,"output_tokens":` + itoa(out) + `}}}` + "\n"
	}
	write(t, filepath.Join(dir, "p", "s.jsonl"),
		a("m1", "r1", 1, 1)+a("m1", "r1", 10, 8)+a("m1", "r1", 9, 9)+ // largest sum 18: the first of the tie
			a("m2", "", 1, 1)+a("m2", "", 2, 2)+ // no requestId: merge with each other
			a("m2", "r2", 1, 0)) // same id with a requestId: its own turn
	write(t, filepath.Join(dir, "p", "s", "subagents", "agent-x.jsonl"), a("m1", "r1", 8, 10)+a("m3", "r3", 1, 1))
	r := sweep(t, Options{Projects: dir})
	in, out := totals(r)
	// m1/r1 -> 10+8 (a tie across files too: the main transcript is read
	// first); m2 -> 2+2; m2/r2 -> 1+0; m3/r3 -> 1+1
	if in != 14 || out != 11 {
		t.Errorf("input %d output %d, want 14 11", in, out)
	}
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSkippedLines(t *testing.T) {
	dir := t.TempDir()
	good := `{"type":"assistant","timestamp":"2026-01-01T00:00:00Z","requestId":"r","message":{"id":"m","model":"m","usage":{"input_tokens":1}}}` + "\n"
	long := `{"type":"user","x":"` + strings.Repeat("a", MaxLine) + `"}` + "\n"
	blob := `{"type":"api-request-blob","x":"` + strings.Repeat("b", MaxLine) + `"}` + "\n"
	write(t, filepath.Join(dir, "p", "s.jsonl"),
		good+"{not json \"type\":\"assistant\"\n"+"{\"type\":\"assistant\",\"x\":\"\xff\"}\n"+long+blob+`{"type":"brand-new"}`+"\n"+good)
	r := sweep(t, Options{Projects: dir})
	want := Skipped{Overlong: 1, InvalidJSON: 1, InvalidUTF8: 1, UnknownTypes: map[string]int{"brand-new": 1}}
	if !reflect.DeepEqual(r.Skipped, want) {
		t.Errorf("skipped %+v, want %+v", r.Skipped, want)
	}
	if in, _ := totals(r); in != 1 {
		t.Errorf("input %d, want 1 (the repeated row is one turn)", in)
	}
}

func TestUntrusted(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "p", "s.jsonl"), `{"type":"assistant","message":{"id":"m","usage":{"input_tokens":1}}}`+"\n")
	if err := os.Chmod(filepath.Join(dir, "p", "s.jsonl"), 0o646); err != nil {
		t.Fatal(err)
	}
	r := sweep(t, Options{Projects: dir})
	if r.Skipped.Untrusted != 1 || len(r.Cost) != 0 {
		t.Errorf("a file writable by others: skipped %+v cost %+v", r.Skipped, r.Cost)
	}
}

// A fail-open line of the log format's cap or longer is counted as
// unparseable and never held; the records around it are still counted.
func TestFailOpenOverlongLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fo.jsonl")
	rec := `{"ts":"2026-12-01T19:30:40Z","gate":"how-do-i","why":"skill-unresolvable","session_id":"s1"}` + "\n"
	write(t, p, rec+strings.Repeat("x", gatelog.MaxLine)+"\n"+rec)
	var sk Skipped
	if got := readFailOpen(p, &Options{}, &sk); got["s1"] != 2 || sk.FailOpenUnparseable != 1 {
		t.Errorf("readFailOpen = %v, unparseable %d; want s1: 2, unparseable 1", got, sk.FailOpenUnparseable)
	}
}
