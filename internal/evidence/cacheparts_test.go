//go:build linux

package evidence

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// turnLine is an assistant row of session sid: one turn (id, req) on
// model, with in input and out output tokens, at the minute min.
func turnLine(sid, id, req, model string, minute, in, out int) string {
	return fmt.Sprintf(`{"type":"assistant","sessionId":%q,"timestamp":"2026-11-0%dT10:%02d:00.000Z","requestId":%q,"message":{"id":%q,"model":%q,"usage":{"input_tokens":%d,"output_tokens":%d,"cache_read_input_tokens":%d}}}`+"\n",
		sid, 1+minute%3, minute, req, id, model, in, out, 7*in) // three days: parts per day
}

// Turns copied across files, as a resumed session copies the turns
// before it: with the cache, the report is the uncached one's as copies
// come (larger, equal, smaller), tie, go and grow, and across a change of
// the options parts are made under. A file kept whole keeps its parts
// unless a copy of one of its turns comes or goes: only the files that
// hold a touched turn are split again.
func TestCacheContested(t *testing.T) {
	shortRacy(t)
	root, projects := nestedCopy(t)
	cacheDir := filepath.Join(root, "cache")
	dir := filepath.Join(projects, "-copies")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	a := filepath.Join(dir, "bbbb.jsonl")
	b := filepath.Join(dir, "cccc.jsonl") // after a in path order
	c := filepath.Join(dir, "aaaa.jsonl") // before a
	other := filepath.Join(projects, "-project", fixtureSession+".jsonl")
	// A file others can write, first in path order: read by no sweep, it
	// has no entry, so the cache's files are numbered apart from the
	// sweep's.
	foreign := filepath.Join(dir, "0000.jsonl")
	write(t, foreign, turnLine("0000", "m1", "r1", "claude-opus-4-6", 1, 100, 10))
	if err := os.Chmod(foreign, 0o666); err != nil {
		t.Fatal(err)
	}
	write(t, a, turnLine("bbbb", "m1", "r1", "claude-opus-4-6", 1, 100, 10)+
		turnLine("bbbb", "m2", "r2", "claude-sonnet-4-5", 2, 200, 20)+
		turnLine("bbbb", "m3", "r3", "claude-haiku-4-5", 3, 300, 30)+
		turnLine("bbbb", "m4", "r4", "unpriced-model", 4, 400, 40))
	settle(t)
	var made int64
	o := Options{partsMade: &made}
	split := func(step string, want int64) {
		t.Helper()
		made = 0
		differ(t, step, projects, cacheDir, o)
		if want++; want > 0 && made != want { // the foreign file is read, and split, every time
			t.Errorf("%s: %d files split, want %d", step, made, want)
		}
	}
	split("cold", -2)
	files := made - 1
	split("warm", 0)

	// b copies a's turns: m1 larger, m2 equal (a, first in path order,
	// keeps it), m3 smaller, m4 on another day; and one of its own.
	write(t, b, turnLine("cccc", "m1", "r1", "claude-opus-4-6", 1, 150, 10)+
		turnLine("cccc", "m2", "r2", "claude-sonnet-4-5", 2, 200, 20)+
		turnLine("cccc", "m3", "r3", "claude-haiku-4-5", 3, 10, 1)+
		turnLine("cccc", "m4", "r4", "unpriced-model", 5, 400, 41)+
		turnLine("cccc", "b1", "rb1", "claude-opus-4-6", 6, 5, 5))
	settle(t)
	split("a copy after", 2) // b, and a, whose turns it copies
	// c, before a in path order, ties a's m2 and copies b's own turn.
	write(t, c, turnLine("aaaa", "m2", "r2", "claude-sonnet-4-5", 2, 200, 20)+
		turnLine("aaaa", "b1", "rb1", "claude-opus-4-6", 6, 5, 5))
	settle(t)
	split("a tie before", 3)
	// An unrelated file grows: only it is split; a, b and c keep their
	// parts, contested turns included.
	appendTo(t, other, turnLine(fixtureSession, "x1", "rx1", "claude-sonnet-4-5", 7, 1, 1))
	settle(t)
	split("an unrelated append", 1)
	// a grows a copy of b's own turn, larger: a is resumed, b and c split.
	appendTo(t, a, turnLine("bbbb", "b1", "rb1", "claude-opus-4-6", 6, 9, 5))
	settle(t)
	split("a copy appended", 3)
	// b goes: its copies are contested no more.
	if err := os.Remove(b); err != nil {
		t.Fatal(err)
	}
	settle(t)
	split("a copy gone", 2)
	// c is rewritten shorter: its turns go.
	write(t, c, turnLine("aaaa", "c9", "rc9", "claude-opus-4-6", 8, 1, 1))
	settle(t)
	split("a copy rewritten", 2)
	// Other options: every file is split again, and again on the way back.
	files++ // c came, b went
	o.Location = time.FixedZone("x", -11*3600)
	split("another zone", files)
	o.Location = nil
	split("the plain options again", files)
	o.Weights = [4]float64{1, 2, 3, 4} // applied to the sums: no file split again
	split("other weights", 0)
	o.Weights = [4]float64{}
	split("warm again", 0)
}

// Two zones of one name: the memo and the parts are made per zone, by
// what the zone does, not by its name (time.Local is "Local" whatever TZ
// says).
func TestCacheZoneByOffsets(t *testing.T) {
	shortRacy(t)
	root, projects := nestedCopy(t)
	cacheDir := filepath.Join(root, "cache")
	settle(t)
	for _, off := range []int{9, -11, 9} {
		differ(t, fmt.Sprintf("UTC%+d named x", off), projects, cacheDir, Options{Location: time.FixedZone("x", off*3600)})
	}
}

// What a fork's first retrieval call was is kept: a fork taken whole from
// the cache counts as recall-first as when it was read.
func TestCacheKeepsRecallFirst(t *testing.T) {
	shortRacy(t)
	root, projects := nestedCopy(t)
	cacheDir := filepath.Join(root, "cache")
	fork := filepath.Join(projects, "-project", fixtureSession, "subagents", "agent-a4edf241f2b1893fc.jsonl")
	ext := `,"sessionId":"` + fixtureSession + `","agentId":"a4edf241f2b1893fc","isSidechain":true,"timestamp":"2026-12-02T10:02:00.000Z"`
	appendTo(t, fork, `{"type":"assistant"`+ext+`,"requestId":"req_q","message":{"id":"msg_q","model":"m","content":[{"type":"tool_use","id":"toolu_q","name":"Bash","input":{"command":"/p/bin/procedures query-records --recall \"make a marker\""}}],"usage":{"input_tokens":1}}}`+"\n")
	settle(t)
	differ(t, "cold", projects, cacheDir, Options{})
	appendTo(t, filepath.Join(projects, "-project", fixtureSession+".jsonl"), turnLine(fixtureSession, "x1", "rx1", "claude-sonnet-4-5", 7, 1, 1))
	settle(t)
	if st := differ(t, "the fork kept whole", projects, cacheDir, Options{}); st[0] == 0 || st[2] != 0 {
		t.Fatalf("%v: want hits and no memo", st)
	}
	rep := sweep(t, Options{Projects: projects, CacheDir: cacheDir})
	if rep.Retrieval.RecallFirst == 0 {
		t.Errorf("recall_first 0: the fork's --recall call was not counted")
	}
	// The fork, resumed, reads its first records.
	appendTo(t, fork, `{"type":"assistant"`+ext+`,"requestId":"req_c","message":{"id":"msg_c","model":"m","content":[{"type":"tool_use","id":"toolu_c","name":"Bash","input":{"command":"/p/bin/procedures query-records --cat references/a.md references/b.md"}}],"usage":{"input_tokens":1}}}`+"\n")
	settle(t)
	if st := differ(t, "the fork resumed", projects, cacheDir, Options{}); st[1] != 1 {
		t.Errorf("%v: want the fork resumed", st)
	}
}

// Across files a turn counts once: its row with the largest sum, the
// first file's in path order on a tie; a turn no other file has counts in
// its own file.
func TestSettleRule(t *testing.T) {
	projects := t.TempDir()
	dir := filepath.Join(projects, "-p")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "a.jsonl"), turnLine("a", "m1", "r1", "claude-opus-4-6", 1, 100, 0)+
		turnLine("a", "m2", "r2", "claude-opus-4-6", 2, 200, 0))
	write(t, filepath.Join(dir, "b.jsonl"), turnLine("b", "m1", "r1", "claude-opus-4-6", 1, 150, 0)+
		turnLine("b", "m2", "r2", "claude-sonnet-4-5", 2, 200, 0)+
		turnLine("b", "b1", "rb1", "claude-opus-4-6", 4, 5, 0))
	rep := sweep(t, Options{Projects: projects, Location: time.UTC})
	if got := rep.Totals; got.Input != 355 || got.Turns != 3 {
		t.Errorf("totals: %d input in %d turns, want 355 in 3", got.Input, got.Turns)
	}
	want := map[string][2]int64{"a": {200, 1}, "b": {155, 2}} // input, turns
	for _, r := range rep.Views["session"] {
		if w := want[r.Key]; r.Input != w[0] || int64(r.Turns) != w[1] {
			t.Errorf("session %s: %d input in %d turns, want %d in %d", r.Key, r.Input, r.Turns, w[0], w[1])
		}
	}
	for _, r := range rep.Views["model"] {
		if r.Key == "claude-sonnet-4-5" {
			t.Errorf("the tie went to the later file: %+v", r)
		}
	}
}

// The cache directory keeps at most maxCacheFiles evidence caches (the
// least recently written go), and loses what a crashed sweep left while
// writing one (after an hour: a file being written now is kept); other
// files are not touched.
func TestCachePrune(t *testing.T) {
	shortRacy(t)
	root, projects := nestedCopy(t)
	cacheDir := filepath.Join(root, "cache")
	if err := os.Mkdir(cacheDir, 0o700); err != nil {
		t.Fatal(err)
	}
	long := time.Now().Add(-2 * time.Hour)
	touch := func(name string, at time.Time) string {
		p := filepath.Join(cacheDir, name)
		write(t, p, "x")
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
		return p
	}
	oldest := touch("evidence-0000000000000000.cache", long.Add(-time.Hour))
	for i := 1; i < maxCacheFiles; i++ {
		touch(fmt.Sprintf("evidence-%016d.cache", i), long.Add(time.Duration(i)*time.Minute))
	}
	stale := touch(".evidence-1.tmp", long)
	writing := touch(".evidence-2.tmp", time.Now())
	other := touch("search-index", long.Add(-5*time.Hour))
	settle(t)
	differ(t, "cold", projects, cacheDir, Options{})
	caches, _ := filepath.Glob(filepath.Join(cacheDir, "evidence-*.cache"))
	if len(caches) != maxCacheFiles {
		t.Errorf("%d cache files, want %d", len(caches), maxCacheFiles)
	}
	for p, want := range map[string]bool{oldest: false, stale: false, writing: true, other: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: there %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
}

// A main transcript resumed from the cache goes on recording the forks its
// Skill calls spawned: one spawned before (no digest), one after (a digest).
func TestCacheResumesSpawned(t *testing.T) {
	shortRacy(t)
	root, projects := nestedCopy(t)
	cacheDir := filepath.Join(root, "cache")
	const sid = "00000000-0000-4000-8000-00000000beef"
	main := filepath.Join(projects, "-project", sid+".jsonl")
	result := func(agent, skill, res string) string {
		return `{"type":"user","isSidechain":false,"sessionId":"` + sid + `","timestamp":"2026-12-02T11:00:00.000Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu_` + agent + `","content":"done"}]},"toolUseResult":{"success":true,"commandName":"` + skill + `","status":"forked","agentId":"` + agent + `","result":"` + res + `"}}` + "\n"
	}
	write(t, main, turnLine(sid, "m1", "r1", "claude-opus-4-6", 1, 10, 1)+result("aother", "procedures:review", ""))
	settle(t)
	differ(t, "a fork without a digest", projects, cacheDir, Options{})
	appendTo(t, main, result("anew", "procedures:how-do-i", "GOAL: g"))
	settle(t)
	if st := differ(t, "then one with a digest", projects, cacheDir, Options{}); st[1] != 1 {
		t.Errorf("%v: want the main transcript resumed", st)
	}
}

// Two turns of one file whose keys share their first 8 bytes are one
// record of the key table: the table the cache keeps still checks, and
// the next sweep takes the file from it.
func TestKeyTableOneRecordPerFileKey(t *testing.T) {
	ks := &keys{add: []keyRec{{1, 0}, {2, 0}, {2, 0}, {2, 1}, {3, 1}}}
	out := &sink{w: io.Discard}
	ks.encode(out, func(f uint32) (uint32, bool) { return f, true })
	d := sharedDec(out.b)
	table := d.keyTable(2)
	if d.err != nil || len(table)/keyRecLen != 4 {
		t.Fatalf("%d records, %v: want 4 that check", len(table)/keyRecLen, d.err)
	}
}

// Weighted units are weighed from the whole numbers of tokens: ten turns
// of one cache-read token weigh 1 unit (0.1 added ten times is
// 0.9999999999999999), whatever order the turns come in.
func TestWeightedFromWholeNumbers(t *testing.T) {
	projects := t.TempDir()
	dir := filepath.Join(projects, "-p")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	var rows string
	for i := range 10 {
		rows += fmt.Sprintf(`{"type":"assistant","sessionId":"s","timestamp":"2026-11-01T10:%02d:00.000Z","requestId":"r%d","message":{"id":"m%d","model":"claude-opus-4-6","usage":{"input_tokens":0,"output_tokens":0,"cache_read_input_tokens":1}}}`+"\n", i, i, i)
	}
	write(t, filepath.Join(dir, "s.jsonl"), rows)
	rep := sweep(t, Options{Projects: projects, Location: time.UTC})
	if len(rep.Cost) != 1 || rep.Cost[0].Weighted != 1 || rep.Cost[0].Models["claude-opus-4-6"] != 1 {
		t.Errorf("cost %+v: want 1 weighted unit, all of it the one model's", rep.Cost)
	}
}
