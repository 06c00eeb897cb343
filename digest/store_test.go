package digest

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/sessionname"
)

var t0 = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

// days is the TTL of SESSION_DIGEST_TTL_DAYS=n: more than n whole days
// old (find -mtime +n).
func days(n int64) time.Duration { return time.Duration(n+1) * 24 * time.Hour }

func mustOpen(dir string) *Store {
	s, err := Open(dir, Options{})
	if err != nil {
		panic(err)
	}
	return s
}

func mustOpenWith(t *testing.T, o Options) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "d"), o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func newStore(t *testing.T) *Store {
	t.Helper()
	return &Store{dir: filepath.Join(t.TempDir(), "turn-state", "digests"), keep: defaultKeep, ttl: defaultTTL, now: time.Now}
}

// digestFiles lists the non-dot entries of dir (what a reader could select).
func digestFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func read(t *testing.T, s *Store, key string) string {
	t.Helper()
	var b bytes.Buffer
	if err := s.Read(key, &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func mustWrite(t *testing.T, s *Store, key, body string) string {
	t.Helper()
	name, err := s.Write(key, body)
	if err != nil {
		t.Fatal(err)
	}
	if name == "" {
		t.Fatalf("Write(%q, %q) stored nothing", key, body)
	}
	return name
}

// The session-id-to-key table (the one session-name rule under
// the digest store's Rule; every key it returns is one Write accepts).
func TestKey(t *testing.T) {
	for _, c := range []struct {
		raw, want string
		ok        bool
	}{
		{"cd95eb6f-408f-4c02-80af-46f48bb7eef4", "cd95eb6f-408f-4c02-80af-46f48bb7eef4", true},
		{"sess/../weird id.42", "sess____weird_id_42", true},
		{"../../evil", "______evil", true},
		{"a.b:c", "a_b_c", true},
		{"abc}def", "abc_def", true},
		{"été", "__t__", true},
		{"a\tb", "a_b", true},
		{"s/1", "s_1", true},
		{"${CLAUDE_SESSION_ID}", "", false},
		{"abc$def", "", false},
		{"abc{def", "", false},
		{"", "", false},
	} {
		got, ok := sessionname.Of(c.raw, sessionname.Digest)
		if got != c.want || ok != c.ok {
			t.Errorf("digest key of %q = %q, %v; want %q, %v", c.raw, got, ok, c.want, c.ok)
		}
	}
}

var nameRE = regexp.MustCompile(`^s1\.digest\.([0-9]+)\.([0-9]{9}[A-Za-z0-9]+)$`)

// One new file, named <key>.digest.<epoch>.<unique>,
// directory 0700 (even pre-existing 0755), file 0600, body normalised.
func TestWriteOneFile(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{"GOAL: x", "GOAL: x\n"},
		{"GOAL: x\n", "GOAL: x\n"},
		{"\n\n  lead\n  trail  \n\n\n", "\n\n  lead\n  trail  \n"},
		{"crlf\r\n", "crlf\r\n"},
	} {
		s := newStore(t)
		if err := os.MkdirAll(s.dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(s.dir, 0o755); err != nil {
			t.Fatal(err)
		}
		s.now = func() time.Time { return t0.Add(123456789) }
		name := mustWrite(t, s, "s1", c.body)
		m := nameRE.FindStringSubmatch(name)
		if m == nil || m[1] != fmt.Sprint(t0.Unix()) || !strings.HasPrefix(m[2], "123456789") {
			t.Fatalf("name %q does not match <key>.digest.<epoch>.<9 ns digits><random>", name)
		}
		if got := digestFiles(t, s.dir); !slices.Equal(got, []string{name}) {
			t.Fatalf("directory holds %q, want just %q", got, name)
		}
		data, err := os.ReadFile(filepath.Join(s.dir, name))
		if err != nil || string(data) != c.want {
			t.Fatalf("content %q (%v), want %q", data, err, c.want)
		}
		checkMode(t, s.dir, 0o700)
		checkMode(t, filepath.Join(s.dir, name), 0o600)
		checkMode(t, filepath.Dir(s.dir), 0o755) // parent keeps its mkdir mode
	}
}

func checkMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != want {
		t.Fatalf("%s: mode %v, want %v", path, got, want)
	}
}

// Whitespace-only bodies store nothing, succeed, create no directory.
func TestWriteWhitespaceOnly(t *testing.T) {
	for _, body := range []string{"", "\n\n", "   ", " \t ", " \n ", "\v\f\r"} {
		s := newStore(t)
		name, err := s.Write("s1", body)
		if name != "" || err != nil {
			t.Fatalf("Write(%q) = %q, %v; want nothing stored, no error", body, name, err)
		}
		if _, err := os.Stat(filepath.Dir(s.dir)); !os.IsNotExist(err) {
			t.Fatalf("Write(%q) created %s", body, filepath.Dir(s.dir))
		}
	}
}

// A second write adds a file, the first is unchanged,
// and the replay shows both oldest first.
func TestSecondWriteAppends(t *testing.T) {
	s := newStore(t)
	now := t0
	s.now = func() time.Time { return now }
	first := mustWrite(t, s, "s1", "GOAL: one")
	fi1, _ := os.Stat(filepath.Join(s.dir, first))
	now = now.Add(time.Second)
	second := mustWrite(t, s, "s1", "GOAL: two")
	if first == second {
		t.Fatal("second write reused the first name")
	}
	got := digestFiles(t, s.dir)
	if !slices.Equal(got, []string{first, second}) {
		t.Fatalf("files %q, want %q then %q", got, first, second)
	}
	data, _ := os.ReadFile(filepath.Join(s.dir, first))
	fi1b, _ := os.Stat(filepath.Join(s.dir, first))
	if string(data) != "GOAL: one\n" || !os.SameFile(fi1, fi1b) || !fi1.ModTime().Equal(fi1b.ModTime()) {
		t.Fatalf("first digest was rewritten: %q", data)
	}
	want := "==> prior /how-do-i digest 1 <==\nGOAL: one\n==> prior /how-do-i digest 2 <==\nGOAL: two\n"
	if out := read(t, s, "s1"); out != want {
		t.Fatalf("replay:\n%s\nwant:\n%s", out, want)
	}
}

// Deliberate difference: <unique> starts with the nanoseconds, so digests
// written within one second replay in write order.
func TestSameSecondWriteOrder(t *testing.T) {
	s := newStore(t)
	s.keep = 0
	var want strings.Builder
	for i := range 12 {
		s.now = func() time.Time { return t0.Add(time.Duration(i) * 70 * time.Millisecond) } // 0..770 ms
		mustWrite(t, s, "s1", fmt.Sprintf("step %d", i))
		fmt.Fprintf(&want, "==> prior /how-do-i digest %d <==\nstep %d\n", i+1, i)
	}
	if got := read(t, s, "s1"); got != want.String() {
		t.Fatalf("same-second replay:\n%s\nwant:\n%s", got, want.String())
	}
}

// A key that escapes is never produced by Key, and Write refuses one
// that did not come from Key; the derived key stays inside the directory.
func TestKeyCannotEscape(t *testing.T) {
	s := newStore(t)
	if name, err := s.Write("", "GOAL: x"); name != "" || err != nil {
		t.Errorf("Write with an empty key = %q, %v; want nothing stored, no error", name, err)
	}
	for _, bad := range []string{"../../evil", "a/b", ".hidden", "x.digest.1"} {
		if name, err := s.Write(bad, "GOAL: x"); err == nil || !errors.Is(err, ErrInvalidKey) || name != "" {
			t.Errorf("Write(%q) = %q, %v; want ErrInvalidKey", bad, name, err)
		}
	}
	key, ok := sessionname.Of("../../evil", sessionname.Digest)
	if !ok {
		t.Fatal("refused")
	}
	name := mustWrite(t, s, key, "GOAL: x")
	if !strings.HasPrefix(name, "______evil.digest.") {
		t.Fatalf("name %q", name)
	}
	top := filepath.Dir(filepath.Dir(s.dir))
	var all []string
	filepath.Walk(top, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			all = append(all, p)
		}
		return nil
	})
	if len(all) != 1 || filepath.Dir(all[0]) != s.dir {
		t.Fatalf("files written: %q, want exactly one inside %s", all, s.dir)
	}
}

// Isolation, including prefix keys; no tolerant fallback.
func TestIsolation(t *testing.T) {
	s := newStore(t)
	mustWrite(t, s, "ab", "GOAL: ab")
	mustWrite(t, s, "abc", "GOAL: abc")
	mustWrite(t, s, "some-other-session", "GOAL: other")
	if got := len(digestFiles(t, s.dir)); got != 3 {
		t.Fatalf("%d files, want 3", got)
	}
	if out := read(t, s, "ab"); out != "==> prior /how-do-i digest 1 <==\nGOAL: ab\n" {
		t.Fatalf("key ab replays %q", out)
	}
	if out := read(t, s, "cd95eb6f-408f-4c02-80af-46f48bb7eef4"); out != "" {
		t.Fatalf("an unknown session replays %q", out)
	}
	if out := read(t, s, "a"); out != "" {
		t.Fatalf("prefix key a replays %q", out)
	}
}

// Creation failures are *WriteError: a path component that is a
// regular file; a name too long for the file system.
func TestWriteCreationFailures(t *testing.T) {
	s := newStore(t)
	if err := os.WriteFile(filepath.Dir(s.dir), []byte("not a dir"), 0o644); err != nil {
		t.Fatal(err)
	}
	var we *WriteError
	if _, err := s.Write("s1", "GOAL: x"); !errors.As(err, &we) || we.Op != "mkdir" {
		t.Fatalf("Write under a regular file: %v, want a mkdir *WriteError", err)
	}
	s = newStore(t)
	if _, err := s.Write(strings.Repeat("a", 300), "GOAL: x"); !errors.As(err, &we) {
		t.Fatalf("Write with a 300-byte key: %v, want *WriteError", err)
	}
	if got := digestFiles(t, s.dir); len(got) != 0 {
		t.Fatalf("left behind %q", got)
	}
	// A long key that fits the final name works: the temporary name is short.
	// <key>.digest.<10-digit epoch>.<15-character unique> must fit in 255
	// bytes, so 221 is the longest key (bash's 6-character mktemp allowed 230).
	mustWrite(t, s, strings.Repeat("b", 221), "GOAL: x")
	if _, err := s.Write(strings.Repeat("c", 222), "GOAL: x"); !errors.As(err, &we) {
		t.Fatalf("Write with a 222-byte key: %v, want *WriteError", err)
	}
}

// 100 writers for one key, parked on a barrier and released together,
// lose nothing.
func TestConcurrentWritersBarrier(t *testing.T) {
	const n = 100
	s := newStore(t)
	s.keep = 0
	release := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			<-release
			if _, err := s.Write("s1", fmt.Sprintf("concurrent-payload-%d", i)); err != nil {
				errs <- err
			}
		})
	}
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	checkAllPayloads(t, s, n)
}

// checkAllPayloads asserts n digest files, each holding a distinct
// concurrent-payload-<i>, every i present, and the replay showing them all.
func checkAllPayloads(t *testing.T, s *Store, n int) {
	t.Helper()
	files := digestFiles(t, s.dir)
	if len(files) != n {
		t.Fatalf("expected %d digests, found %d — a write was lost", n, len(files))
	}
	seen := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(s.dir, f))
		if err != nil {
			t.Fatal(err)
		}
		seen[string(data)] = true
	}
	out := read(t, s, "s1")
	for i := range n {
		p := fmt.Sprintf("concurrent-payload-%d\n", i)
		if !seen[p] || !strings.Contains(out, "\n"+p) {
			t.Errorf("payload %d missing", i)
		}
	}
}

// A reader polling during concurrent writes never sees an empty or
// partial digest (neither by size nor by content).
func TestAtomicVisibility(t *testing.T) {
	s := newStore(t)
	body := strings.Repeat("x", 1<<20)
	var wg sync.WaitGroup
	done := make(chan struct{})
	var mu sync.Mutex
	var bad []string
	poll := func() {
		for {
			select {
			case <-done:
				return
			default:
			}
			entries, _ := os.ReadDir(s.dir)
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), ".") {
					continue
				}
				p := filepath.Join(s.dir, e.Name())
				if fi, err := os.Lstat(p); err == nil && fi.Size() != int64(len(body)+1) {
					mu.Lock()
					bad = append(bad, fmt.Sprintf("%s: size %d", e.Name(), fi.Size()))
					mu.Unlock()
				}
				if data, err := os.ReadFile(p); err == nil && len(data) != len(body)+1 {
					mu.Lock()
					bad = append(bad, fmt.Sprintf("%s: read %d bytes", e.Name(), len(data)))
					mu.Unlock()
				}
			}
		}
	}
	wg.Go(poll)
	wg.Go(poll)
	for range 4 {
		var writers sync.WaitGroup
		for range 25 {
			writers.Go(func() {
				if _, err := s.Write("s1", body); err != nil {
					t.Error(err)
				}
			})
		}
		writers.Wait()
	}
	close(done)
	wg.Wait()
	if len(bad) > 0 {
		t.Fatalf("reader saw %d partial digests, e.g. %q", len(bad), bad[:min(len(bad), 3)])
	}
}

func plant(t *testing.T, s *Store, name, content string, mtime time.Time) {
	t.Helper()
	p := filepath.Join(s.dir, name)
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

// Reaping on write, GNU -mtime +TTL boundaries, all keys,
// dot-prefixed leftovers; subfolders, other names, symlinks and future mtimes
// untouched.
func TestReapBoundaries(t *testing.T) {
	ages := []int{23, 25, 47, 49, 71, 73, 95, 97, 1000}
	for _, c := range []struct {
		ttl         int64
		firstReaped int // hours
	}{{0, 25}, {1, 49}, {2, 73}, {3, 97}} {
		t.Run(fmt.Sprint("ttl", c.ttl), func(t *testing.T) {
			s := newStore(t)
			s.ttl = days(c.ttl)
			s.now = func() time.Time { return t0 }
			for _, h := range ages {
				plant(t, s, fmt.Sprintf("k%d.digest.1.AAAAAA", h), "x\n", t0.Add(-time.Duration(h)*time.Hour))
			}
			old := t0.Add(-1000 * time.Hour)
			plant(t, s, ".digest.tmp123", "x", old)
			plant(t, s, "future.digest.1.AAAAAA", "x\n", t0.Add(48*time.Hour))
			plant(t, s, "notes.txt", "x\n", old)
			if err := os.Mkdir(filepath.Join(s.dir, "sub"), 0o700); err != nil {
				t.Fatal(err)
			}
			plant(t, s, "sub/k.digest.1.AAAAAA", "x\n", old)
			if err := os.Symlink(filepath.Join(s.dir, "notes.txt"), filepath.Join(s.dir, "link.digest.1.AAAAAA")); err != nil {
				t.Fatal(err)
			}
			os.Chtimes(filepath.Join(s.dir, "sub"), old, old)
			mustWrite(t, s, "fresh", "GOAL: fresh")
			for _, h := range ages {
				_, err := os.Lstat(filepath.Join(s.dir, fmt.Sprintf("k%d.digest.1.AAAAAA", h)))
				if gone := os.IsNotExist(err); gone != (h >= c.firstReaped) {
					t.Errorf("TTL %d: %dh-old digest gone=%v", c.ttl, h, gone)
				}
			}
			if _, err := os.Lstat(filepath.Join(s.dir, ".digest.tmp123")); !os.IsNotExist(err) {
				t.Error("stale temporary leftover not reaped")
			}
			for _, keep := range []string{"future.digest.1.AAAAAA", "notes.txt", "sub/k.digest.1.AAAAAA", "link.digest.1.AAAAAA"} {
				if _, err := os.Lstat(filepath.Join(s.dir, keep)); err != nil {
					t.Errorf("%s was reaped: %v", keep, err)
				}
			}
		})
	}
}

// Deliberate difference: an expired digest is not replayed but
// reading never deletes it; the next write reaps it and replays the fresh one.
func TestReaderSkipsExpiredWithoutDeleting(t *testing.T) {
	s := newStore(t)
	s.now = func() time.Time { return t0 }
	year2000 := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	plant(t, s, "s1.digest.946684800.AAAAAA", "GOAL: stale\n", year2000)
	if out := read(t, s, "s1"); out != "" {
		t.Fatalf("expired digest replayed: %q", out)
	}
	if _, err := os.Stat(filepath.Join(s.dir, "s1.digest.946684800.AAAAAA")); err != nil {
		t.Fatalf("reader deleted the expired digest: %v", err)
	}
	s.ttl = Unlimited
	if out := read(t, s, "s1"); out != "==> prior /how-do-i digest 1 <==\nGOAL: stale\n" {
		t.Fatalf("with no TTL the old digest replays as %q", out)
	}
	s.ttl = defaultTTL
	mustWrite(t, s, "s1", "GOAL: fresh")
	if got := digestFiles(t, s.dir); len(got) != 1 || strings.Contains(got[0], "946684800") {
		t.Fatalf("after a write: %q", got)
	}
	if out := read(t, s, "s1"); out != "==> prior /how-do-i digest 1 <==\nGOAL: fresh\n" {
		t.Fatalf("replay %q", out)
	}
}

func plantSix(t *testing.T, s *Store) {
	for i := 1; i <= 6; i++ {
		plant(t, s, fmt.Sprintf("k.digest.170000000%d.AAAAAA", i), fmt.Sprintf("payload-%d\n", i), t0.Add(-time.Hour))
	}
}

func replay(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "==> prior /how-do-i digest %d <==\npayload-%d\n", i-from+1, i)
	}
	return b.String()
}

// The cap and its loud count line (the
// SESSION_DIGEST_KEEP table is internal/config's TestDigestKeep).
func TestReplayKeep(t *testing.T) {
	line := func(n int) string {
		return fmt.Sprintf("(6 prior digests this session \u2014 replaying the %d most recent)\n", n)
	}
	for _, c := range []struct {
		keep int
		want string
	}{
		{0, line(3) + replay(4, 6)}, // the zero Options: the default 3
		{1, line(1) + replay(6, 6)},
		{5, line(5) + replay(2, 6)},
		{6, replay(1, 6)},
		{7, replay(1, 6)},
		{Unlimited, replay(1, 6)},
		{-5, replay(1, 6)},
		{math.MaxInt, replay(1, 6)},
	} {
		s := mustOpenWith(t, Options{Keep: c.keep, Now: func() time.Time { return t0 }})
		plantSix(t, s)
		if got := read(t, s, "k"); got != c.want {
			t.Errorf("Keep %d:\n%s\nwant:\n%s", c.keep, got, c.want)
		}
	}
}

// The zero Options are the documented defaults, and Unlimited means no
// expiry; Open refuses only an empty directory.
func TestOpenDefaults(t *testing.T) {
	s := mustOpenWith(t, Options{})
	if s.keep != 3 || s.ttl != 72*time.Hour || s.now != nil || s.Dir() == "" {
		t.Fatalf("zero Options: keep %d ttl %v", s.keep, s.ttl)
	}
	s = mustOpenWith(t, Options{Keep: Unlimited, TTL: Unlimited})
	if s.keep != 0 || s.ttl >= 0 {
		t.Fatalf("Unlimited: keep %d ttl %v", s.keep, s.ttl)
	}
	if _, err := Open("", Options{}); !errors.Is(err, fs.ErrInvalid) {
		t.Fatalf("Open(\"\") = %v, want fs.ErrInvalid", err)
	}
}

// Deliberate difference: directories and symlinks named like
// digests are ignored, zero-byte files are skipped (not counted), bytes are
// emitted verbatim with no newline added.
func TestReaderSelection(t *testing.T) {
	s := newStore(t)
	s.now = func() time.Time { return t0 }
	plant(t, s, "k.digest.1700000001.AAAAAA", "no final newline", t0)
	plant(t, s, "k.digest.1700000002.AAAAAA", "", t0)
	plant(t, s, "k.digest.1700000003.AAAAAA", "third\n", t0)
	plant(t, s, "outside", "SECRET\n", t0)
	os.Mkdir(filepath.Join(s.dir, "k.digest.1700000004.AAAAAA"), 0o700)
	os.Symlink(filepath.Join(s.dir, "outside"), filepath.Join(s.dir, "k.digest.1700000005.AAAAAA"))
	plant(t, s, ".k.digest.1700000006.AAAAAA", "temp\n", t0)
	want := "==> prior /how-do-i digest 1 <==\nno final newline==> prior /how-do-i digest 2 <==\nthird\n"
	if got := read(t, s, "k"); got != want {
		t.Fatalf("replay:\n%q\nwant:\n%q", got, want)
	}
}

// 9.1 fix: a symlinked SESSION_DIGEST_DIR is followed by the writer, the
// reader and the reaper.
func TestSymlinkedDir(t *testing.T) {
	real := filepath.Join(t.TempDir(), "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	s := &Store{dir: filepath.Join(t.TempDir(), "link"), keep: 3, ttl: defaultTTL, now: func() time.Time { return t0 }}
	if err := os.Symlink(real, s.dir); err != nil {
		t.Fatal(err)
	}
	plant(t, &Store{dir: real}, "old.digest.1.AAAAAA", "x\n", t0.Add(-1000*time.Hour))
	mustWrite(t, s, "s1", "GOAL: via link")
	if got := digestFiles(t, real); len(got) != 1 || !strings.HasPrefix(got[0], "s1.digest.") {
		t.Fatalf("real dir holds %q", got)
	}
	checkMode(t, real, 0o700)
	if out := read(t, s, "s1"); out != "==> prior /how-do-i digest 1 <==\nGOAL: via link\n" {
		t.Fatalf("replay through the link: %q", out)
	}
}

// Reading changes nothing (names, modes, mtimes).
func TestReadIsReadOnly(t *testing.T) {
	s := newStore(t)
	plant(t, s, "k.digest.1.AAAAAA", "x\n", t0.Add(-1000*time.Hour))
	plant(t, s, "k.digest.2.AAAAAA", "y\n", t0)
	os.Chmod(s.dir, 0o755)
	snap := func() string {
		var b strings.Builder
		filepath.Walk(filepath.Dir(s.dir), func(p string, fi os.FileInfo, err error) error {
			fmt.Fprintln(&b, p, fi.Mode(), fi.ModTime().UnixNano(), fi.Size())
			return nil
		})
		return b.String()
	}
	before := snap()
	read(t, s, "k")
	read(t, s, "${x}")
	if after := snap(); after != before {
		t.Fatalf("Read changed the store:\n%s\nvs\n%s", before, after)
	}
}
