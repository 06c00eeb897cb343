package evidence

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A warm run reads the cache file's head and memo alone: a damaged body
// does not stop the memo (the head and the memo check themselves), and
// once the memo cannot answer, the damaged body is not trusted: every
// file is read again, and the report is the uncached one's.
func TestCacheHeadFirst(t *testing.T) {
	shortRacy(t)
	root, projects := nestedCopy(t)
	cacheDir := filepath.Join(root, "cache")
	settle(t)
	differ(t, "cold", projects, cacheDir, Options{})
	files := int64(7)
	if st := differ(t, "warm", projects, cacheDir, Options{}); st != [3]int64{files, 0, 1} {
		t.Fatalf("warm with a long head: %v hits/resumes/memo, want the memo", st)
	}
	// A caller that writes JSON alone gets the memo as kept, undecoded.
	var st [3]int64
	var got, want bytes.Buffer
	if err := sweep(t, Options{Projects: projects, Location: time.UTC, CacheDir: cacheDir, JSONOnly: true, cacheStats: &st}).WriteJSON(&got); err != nil {
		t.Fatal(err)
	}
	if err := sweep(t, Options{Projects: projects, Location: time.UTC}).WriteJSON(&want); err != nil {
		t.Fatal(err)
	}
	if st[2] != 1 || got.String() != want.String() {
		t.Errorf("JSON alone: memo %d, JSON\n%s\nwant\n%s", st[2], got.String(), want.String())
	}
	paths, _ := filepath.Glob(filepath.Join(cacheDir, "evidence-*.cache"))
	if len(paths) != 1 {
		t.Fatalf("cache files %v, want one", paths)
	}
	b, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	h := headOf(t, paths[0])
	b[superLen+h.regionLen+h.indexLen-5] ^= 0xff // the index's last byte before its CRC
	if err := os.WriteFile(paths[0], b, 0o600); err != nil {
		t.Fatal(err)
	}
	if st := differ(t, "damaged body, warm", projects, cacheDir, Options{}); st != [3]int64{files, 0, 1} {
		t.Errorf("damaged body, warm: %v hits/resumes/memo, want the memo", st)
	}
	if st := differ(t, "damaged body, another option", projects, cacheDir, Options{Skill: Main}); st != [3]int64{0, 0, 0} {
		t.Errorf("damaged body, another option: %v hits/resumes/memo, want every file read", st)
	}
	if st := differ(t, "rebuilt", projects, cacheDir, Options{Skill: "how-do-i"}); st != [3]int64{files, 0, 0} {
		t.Errorf("rebuilt: %v hits/resumes/memo, want every file a hit", st)
	}
}

// A warm run does not list the directories again while each is as it
// was; a fork transcript in a subagents directory new to an old session
// directory, and a project directory others may now write, are still
// seen.
func TestCacheUnlistedDirs(t *testing.T) {
	shortRacy(t)
	root, projects := nestedCopy(t)
	session := filepath.Join(projects, "-project", "00000000-0000-4000-8000-00000000abcd")
	if err := os.Mkdir(session, 0o755); err != nil {
		t.Fatal(err)
	}
	cacheDir := filepath.Join(root, "cache")
	settle(t)
	differ(t, "cold", projects, cacheDir, Options{})
	if st := differ(t, "warm", projects, cacheDir, Options{}); st[2] != 1 {
		t.Fatalf("warm: %v, want the memo", st)
	}
	forks, _ := filepath.Glob(filepath.Join(projects, "-project", fixtureSession, "subagents", "agent-*.jsonl"))
	b, err := os.ReadFile(forks[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(session, "subagents"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(session, "subagents", "agent-new.jsonl"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	settle(t)
	before := jsonOf(t, sweep(t, Options{Projects: projects, Location: time.UTC}))
	if st := differ(t, "a new subagents directory", projects, cacheDir, Options{}); st[2] != 0 {
		t.Errorf("a new subagents directory: %v, the memo answered", st)
	}
	if err := os.Chmod(filepath.Join(projects, "-project"), 0o757); err != nil {
		t.Fatal(err)
	}
	settle(t)
	if st := differ(t, "a project directory others can write", projects, cacheDir, Options{}); st[2] != 0 {
		t.Errorf("a project directory others can write: %v, the memo answered", st)
	}
	if after := jsonOf(t, sweep(t, Options{Projects: projects, Location: time.UTC})); after == before {
		t.Errorf("the untrusted project directory was still read")
	}
}

// headOf reads the head of the cache file p.
func headOf(t *testing.T, p string) memoHead {
	t.Helper()
	f, size, err := openTrusted(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, _, err := readHead(f, size)
	if err != nil {
		t.Fatal(err)
	}
	d := &dec{b: b}
	key := d.s()
	var h memoHead
	if err := h.decode(b, key); err != nil {
		t.Fatal(err)
	}
	return h
}

// A turn blob in the cache that does not check (its CRC) is not used:
// the file it belongs to is read again, whole, when its turns are
// needed, and the report is the uncached one's.
func TestCacheDamagedTurns(t *testing.T) {
	shortRacy(t)
	root, projects := nestedCopy(t)
	cacheDir := filepath.Join(root, "cache")
	main := filepath.Join(projects, "-project", fixtureSession+".jsonl")
	settle(t)
	differ(t, "cold", projects, cacheDir, Options{})
	paths, _ := filepath.Glob(filepath.Join(cacheDir, "evidence-*.cache"))
	b, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	h := headOf(t, paths[0])
	for i := superLen; i < superLen+int(h.regionLen); i += 7 {
		b[i] ^= 0x5a // every turn blob
	}
	if err := os.WriteFile(paths[0], b, 0o600); err != nil {
		t.Fatal(err)
	}
	// Another zone: every file's parts are made again, from its turns.
	if st := differ(t, "damaged turns, another zone", projects, cacheDir, Options{Location: time.FixedZone("x", 5*3600)}); st[2] != 0 {
		t.Errorf("%v: the memo answered", st)
	}
	appendTo(t, main, turnLine(fixtureSession, "x1", "rx1", "claude-sonnet-4-5", 7, 1, 1))
	settle(t)
	differ(t, "damaged turns, then an append", projects, cacheDir, Options{})
}
