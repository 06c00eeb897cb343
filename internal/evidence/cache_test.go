//go:build linux

package evidence

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// settle waits until every file written so far is out of the racy
// window (ctime cannot be set back, so the test waits).
func settle(t *testing.T) {
	t.Helper()
	time.Sleep(racyWindow + 20*time.Millisecond)
}

// nestedCopy copies the shared fixture into root/projects, in a fresh
// temporary root.
func nestedCopy(t *testing.T) (root, projects string) {
	t.Helper()
	root = t.TempDir()
	projects = filepath.Join(root, "projects")
	if err := os.CopyFS(projects, os.DirFS("testdata/nested")); err != nil {
		t.Fatal(err)
	}
	return root, projects
}

// shortRacy narrows the racy window for a test (the file systems tests
// run on keep nanosecond timestamps), and restores it after.
func shortRacy(t *testing.T) {
	old := racyWindow
	racyWindow = 100 * time.Millisecond
	t.Cleanup(func() { racyWindow = old })
}

// differ sweeps projects with and without the cache and fails unless the
// reports are identical; it returns the cache's hits and resumes.
func differ(t *testing.T, step, projects, cacheDir string, o Options) [3]int64 {
	t.Helper()
	o.Projects = projects
	if o.Location == nil {
		o.Location = time.UTC
	}
	plain := jsonOf(t, sweep(t, o))
	var st [3]int64
	o.CacheDir, o.cacheStats = cacheDir, &st
	cached := jsonOf(t, sweep(t, o))
	if plain != cached {
		t.Fatalf("%s: the cached report differs from the uncached one\ncached:\n%s\nuncached:\n%s", step, cached, plain)
	}
	return st
}

func appendTo(t *testing.T, p, s string) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// TestCacheDifferential: cold, warm, appended, truncated, rotated and
// deleted transcripts, and a window: the cached sweep's report is the
// uncached one's every time, and the cache reads only what changed.
func TestCacheDifferential(t *testing.T) {
	shortRacy(t)
	root, projects := nestedCopy(t)
	genCorpus(t, projects, 4, 6, 256)
	cacheDir := filepath.Join(root, "cache", "procedures")
	settle(t)
	main := filepath.Join(projects, "-project", fixtureSession+".jsonl")
	files := 7 + 4 + 4*2

	if st := differ(t, "cold", projects, cacheDir, Options{}); st != [3]int64{0, 0, 0} {
		t.Errorf("cold: %v hits/resumes/memo, want none", st)
	}
	if st := differ(t, "warm", projects, cacheDir, Options{}); st != [3]int64{int64(files), 0, 1} {
		t.Errorf("warm: %v hits/resumes/memo, want %d hits from the memo", st, files)
	}
	// Every option that shapes the report, and the fail-open log, make a
	// new report, not the memo.
	foLog := filepath.Join(root, "failopen.jsonl")
	for _, c := range []struct {
		name string
		o    Options
	}{
		{"skill", Options{Skill: "main"}},
		{"split", Options{SplitAt: time.Date(2026, 12, 1, 19, 30, 34, 0, time.UTC)}},
		{"weights", Options{Weights: [4]float64{1, 2, 3, 4}}},
		{"pins", Options{Pins: map[string]string{"procedures:how-do-i": "opus"}}},
		{"prices", Options{Prices: &Prices{Date: "x", Models: map[string]Price{"claude-sonnet-5-5": {Input: 1}}}}},
		{"zone", Options{Location: time.FixedZone("x", 9*3600)}},
	} {
		differ(t, "plain, before "+c.name, projects, cacheDir, Options{}) // the memo of the plain options
		differ(t, c.name, projects, cacheDir, c.o)
	}
	// The same skill pinned to another model.
	differ(t, "pinned opus", projects, cacheDir, Options{Pins: map[string]string{"procedures:how-do-i": "opus"}})
	differ(t, "pinned sonnet", projects, cacheDir, Options{Pins: map[string]string{"procedures:how-do-i": "sonnet"}})
	// The same table, of the same date, with one price changed.
	for _, in := range []float64{1, 2} {
		differ(t, "priced", projects, cacheDir, Options{Prices: &Prices{Date: "x", Models: map[string]Price{"claude-sonnet-5-5": {Input: in}}}})
	}
	// A fail-open log that grows after the memo was made.
	fo := Options{FailOpenLog: foLog}
	write(t, foLog, `{"ts":"2026-12-01T19:30:33Z","gate":"how-do-i-gate","why":"x","session_id":"`+fixtureSession+`"}`+"\n")
	settle(t)
	differ(t, "a fail-open log", projects, cacheDir, fo)
	if st := differ(t, "the same fail-open log", projects, cacheDir, fo); st[2] != 1 {
		t.Errorf("%v: the memo was not used", st)
	}
	appendTo(t, foLog, `{"ts":"2026-12-01T19:30:34Z","gate":"am-i-done-gate","why":"y","session_id":"`+fixtureSession+`"}`+"\n")
	settle(t)
	differ(t, "the fail-open log grown", projects, cacheDir, fo)
	differ(t, "back to the plain options", projects, cacheDir, Options{})
	if st := differ(t, "memo again", projects, cacheDir, Options{}); st[2] != 1 {
		t.Errorf("%v: the memo was not used", st)
	}

	// Appended: a new turn, a gate release and a digest read's result
	// whose call is in the part already read.
	appendTo(t, main, `{"type":"assistant","sessionId":"`+fixtureSession+`","timestamp":"2026-12-02T10:00:00.000Z","requestId":"req_new","message":{"id":"msg_new","model":"claude-opus-4-6","usage":{"input_tokens":1000,"output_tokens":10}}}`+"\n")
	settle(t)
	if st := differ(t, "appended", projects, cacheDir, Options{}); st != [3]int64{int64(files - 1), 1, 0} {
		t.Errorf("appended: %v hits/resumes, want %d hits and 1 resume", st, files-1)
	}
	// A resumed scan carries its state over: a digest read whose result
	// comes in the next append, a Stop block released in the next.
	fork := filepath.Join(projects, "-project", fixtureSession, "subagents", "agent-a4edf241f2b1893fc.jsonl")
	ext := `,"sessionId":"` + fixtureSession + `","agentId":"a4edf241f2b1893fc","isSidechain":true,"timestamp":"2026-12-02T10:02:00.000Z"`
	appendTo(t, fork, `{"type":"assistant"`+ext+`,"requestId":"req_d","message":{"id":"msg_d","model":"m","content":[{"type":"tool_use","id":"toolu_late","name":"Bash","input":{"command":"bash /p/scripts/session-digest-read.sh --read x"}}],"usage":{"input_tokens":1}}}`+"\n")
	appendTo(t, main, `{"type":"system","subtype":"stop_hook_summary","sessionId":"`+fixtureSession+`","timestamp":"2026-12-02T10:03:00.000Z","hookErrors":["AM-I-DONE: review"]}`+"\n")
	settle(t)
	differ(t, "a call and a block", projects, cacheDir, Options{})
	appendTo(t, fork, `{"type":"user"`+ext+`,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_late","content":"==> prior /how-do-i digest 9 <==\nGOAL: g"}]}}`+"\n")
	appendTo(t, main, `{"type":"system","subtype":"stop_hook_summary","sessionId":"`+fixtureSession+`","timestamp":"2026-12-02T10:04:00.000Z","hookErrors":[]}`+"\n")
	settle(t)
	if st := differ(t, "its result and the release", projects, cacheDir, Options{}); st[1] != 2 {
		t.Errorf("%v: want the fork and the main transcript resumed", st)
	}

	// Appended without a final newline, then completed: the partial line
	// is read, and the next sweep reads the file again from its start.
	appendTo(t, main, `{"type":"assistant","sessionId":"`+fixtureSession+`","timestamp":"2026-12-02T10:01:00.000Z","requestId":"req_p","message":{"id":"msg_p","model":"claude-opus-4-6","usage":{"input_tokens":7}}}`)
	settle(t)
	differ(t, "partial line", projects, cacheDir, Options{})
	appendTo(t, main, "\n")
	settle(t)
	differ(t, "partial line completed", projects, cacheDir, Options{})

	// Truncated: the file is shorter; rewritten in place at the same size.
	b, err := os.ReadFile(main)
	if err != nil {
		t.Fatal(err)
	}
	cut := bytes.LastIndexByte(b[:len(b)-1], '\n') + 1
	if err := os.WriteFile(main, b[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	settle(t)
	differ(t, "truncated", projects, cacheDir, Options{})
	same := bytes.Replace(b[:cut], []byte(`"input_tokens":100,`), []byte(`"input_tokens":900,`), 1)
	if err := os.WriteFile(main, same, 0o644); err != nil {
		t.Fatal(err)
	}
	differ(t, "rewritten at the same size, just now (racy)", projects, cacheDir, Options{})
	settle(t)
	// Rewritten in place (the same inode), longer: not an append.
	longer := append(bytes.Replace(same, []byte(`"output_tokens":20,`), []byte(`"output_tokens":70,`), 1), b[cut:]...)
	if err := os.WriteFile(main, longer, 0o644); err != nil {
		t.Fatal(err)
	}
	settle(t)
	if st := differ(t, "rewritten in place, longer", projects, cacheDir, Options{}); st[1] != 0 {
		t.Errorf("a rewrite was resumed as an append")
	}
	// Rotated: a new file (new inode) at the same path, grown past the old
	// size; and a file moved to another name.
	rot := main + ".new"
	if err := os.WriteFile(rot, append(bytes.Clone(b), b...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(rot, main); err != nil {
		t.Fatal(err)
	}
	settle(t)
	differ(t, "rotated", projects, cacheDir, Options{})
	agents, _ := filepath.Glob(filepath.Join(projects, "-proj0", "*", "subagents", "agent-*.jsonl"))
	if len(agents) == 0 {
		t.Fatal("no generated fork")
	}
	if err := os.Rename(agents[0], strings.Replace(agents[0], "agent-", "agent-z", 1)); err != nil {
		t.Fatal(err)
	}
	// Deleted.
	if err := os.Remove(agents[len(agents)-1]); err != nil {
		t.Fatal(err)
	}
	settle(t)
	differ(t, "moved and deleted", projects, cacheDir, Options{})
	// A window has its own cache file.
	w := Options{Since: time.Date(2026, 6, 1, 3, 0, 0, 0, time.UTC), Until: time.Date(2026, 12, 1, 19, 30, 34, 0, time.UTC)}
	differ(t, "window cold", projects, cacheDir, w)
	if st := differ(t, "window warm", projects, cacheDir, w); st[0] == 0 {
		t.Errorf("window warm: no hits")
	}
}

// A cache file that is not ours to trust is ignored (and replaced): a
// symlink, one writable by others, a corrupt one, another version.
func TestCacheHostile(t *testing.T) {
	shortRacy(t)
	root, projects := nestedCopy(t)
	cacheDir := filepath.Join(root, "cache")
	settle(t)
	// A cache directory others can write is neither read nor written.
	if err := os.Mkdir(cacheDir, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(cacheDir, 0o777)
	differ(t, "open directory", projects, cacheDir, Options{})
	if ps, _ := filepath.Glob(filepath.Join(cacheDir, "*")); len(ps) != 0 {
		t.Errorf("wrote %v into a directory others can write", ps)
	}
	os.Chmod(cacheDir, 0o700)
	differ(t, "cold", projects, cacheDir, Options{})
	paths, _ := filepath.Glob(filepath.Join(cacheDir, "evidence-*.cache"))
	if len(paths) != 1 {
		t.Fatalf("cache files %v, want one", paths)
	}
	cf := paths[0]
	if fi, err := os.Stat(cf); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("cache file mode %v, %v: want 0600", fi.Mode(), err)
	}
	good, _ := os.ReadFile(cf)
	// A lie the checks must catch: the same entries with other numbers.
	lie := bytes.Replace(good, []byte("claude-sonnet-4-5"), []byte("claude-sonnet-4-X"), -1)
	for _, c := range []struct {
		name  string
		setup func()
	}{
		{"corrupt", func() { os.WriteFile(cf, lie, 0o600) }},
		{"truncated", func() { os.WriteFile(cf, good[:len(good)/2], 0o600) }},
		{"truncated body", func() { os.WriteFile(cf, good[:len(good)-10], 0o600) }},
		{"other version", func() {
			b := bytes.Clone(good)
			b[len(cacheMagic)] = cacheVersion + 1
			os.WriteFile(cf, b, 0o600)
		}},
		// Good content in a container that cannot be trusted.
		{"writable by others", func() { os.WriteFile(cf, good, 0o600); os.Chmod(cf, 0o622) }},
		{"a symlink", func() {
			other := filepath.Join(root, "elsewhere")
			os.WriteFile(other, good, 0o600)
			os.Remove(cf)
			os.Symlink(other, cf)
		}},
	} {
		c.setup()
		if st := differ(t, c.name, projects, cacheDir, Options{}); st[0] != 0 {
			t.Errorf("%s: %d hits from a cache that cannot be trusted", c.name, st[0])
		}
		if fi, err := os.Lstat(cf); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: not rebuilt as a 0600 file: %v %v", c.name, fi.Mode(), err)
		}
		os.WriteFile(cf, good, 0o600)
	}
}

// An entry whose file changed less than the racy window before its stat
// is never taken as unchanged: the file may have changed again within
// the same timestamp tick, with nothing in the stat to show it.
func TestCacheRacy(t *testing.T) {
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	st := fileStat{dev: 1, ino: 2, size: 10, mtime: at, ctime: at}
	for _, c := range []struct {
		statAt int64
		want   int
	}{
		{at + int64(time.Millisecond), cacheMiss},
		{at + int64(racyWindow) - 1, cacheMiss},
		{at + int64(racyWindow) + 1, cacheHit},
	} {
		e := &cacheEntry{fileStat: st, scan: &fileScan{}}
		e.at = c.statAt
		if got := e.judge(st); got != c.want {
			t.Errorf("stat %v after the mtime: verdict %d, want %d", time.Duration(c.statAt-at), got, c.want)
		}
	}
	e := &cacheEntry{fileStat: st}
	e.at = at + int64(time.Hour)
	ctimeMoved := st
	ctimeMoved.ctime++
	if got := e.judge(ctimeMoved); got != cacheMiss {
		t.Errorf("a changed ctime: verdict %d, want a miss", got)
	}
}
