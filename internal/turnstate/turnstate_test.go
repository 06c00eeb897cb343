package turnstate

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/procedures-go/procedures/hookio"
	"github.com/procedures-go/procedures/internal/sessionname"
)

func newStore(t *testing.T) Store {
	t.Helper()
	return Store{Dir: filepath.Join(t.TempDir(), "tsd")}
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

func TestMarkers(t *testing.T) {
	s := newStore(t)
	now := time.Now()
	// A fresh session has no turn started.
	if s.TurnStarted("s1") {
		t.Fatal("a fresh session has a turn")
	}
	// Reset stamps the turn marker.
	if err := s.Reset("s1", now); err != nil || !s.TurnStarted("s1") {
		t.Fatalf("reset did not stamp s1.turn: %v", err)
	}
	// Mark then is_marked; an unmarked key reads false after reset.
	if s.IsMarked("s1", HowDoI) {
		t.Fatal("how_do_i marked before any mark")
	}
	s.Mark("s1", HowDoI)
	if !s.IsMarked("s1", HowDoI) || s.IsMarked("s1", AmIDone) {
		t.Fatal("mark/is_marked disagree")
	}
	// Reset clears keys it does not enumerate, and keeps .turn.
	s.Mark("s1", AmIDoneAsked)
	s.Mark("s1", "some_future_key")
	// Reset clears how_do_i and am_i_done from the previous turn.
	s.Mark("s1", AmIDone)
	s.Reset("s1", now)
	if got := names(t, s.Dir); strings.Join(got, " ") != "s1.turn" {
		t.Fatalf("after reset the directory holds %v, want only s1.turn", got)
	}
}

// Concurrent marks of different keys all persist (one file per fact:
// nothing is read back and rewritten).
func TestConcurrentMarks(t *testing.T) {
	s := newStore(t)
	keys := []string{HowDoI, AmIDone, AmIDoneAsked, "k1", "k2", "k3", "k4", "k5"}
	var wg sync.WaitGroup
	for range 10 {
		for _, k := range keys {
			wg.Go(func() { s.Mark("s", k) })
		}
	}
	wg.Wait()
	for _, k := range keys {
		if !s.IsMarked("s", k) {
			t.Errorf("key %s lost", k)
		}
	}
}

func payload(t *testing.T, js string) *hookio.Payload {
	t.Helper()
	p, err := hookio.Read(strings.NewReader(js))
	if err != nil {
		return nil
	}
	return p
}

// Session keys.
func TestSessionKey(t *testing.T) {
	for _, c := range []struct{ payload, want string }{
		{`{"session_id":"../../etc/passwd"}`, "______etc_passwd"}, // no "..", no "/"
		{`{}`, "unknown"}, // a stable bucket
		{`{"session_id":"a.b/c"}`, "a_b_c"},
		{`{"session_id":"héllo"}`, "h__llo"}, // byte-wise
		{`{"session_id":"  "}`, "__"},
		{`{"session_id":"12345"}`, "12345"},
		{`{"session_id":12345}`, "12345"},
		{`{"session_id":1.50}`, "1_5"}, // jq renders 1.5
		{`{"session_id":true}`, "true"},
		{`{"session_id":false}`, "unknown"},
		{`{"session_id":null}`, "unknown"},
		{`{"session_id":""}`, "unknown"},
		{`{"session_id":{"a":1}}`, "_____a___1__"}, // jq's pretty form, sanitised
		{`{"session_id":"x\n"}`, "x"},              // trailing line feeds go, as in $(…)
		{`{"session_id":"a\nb"}`, "a_b"},
		{`not json`, "unknown"},
		{`"str"`, "unknown"},
		{`[1,2]`, "unknown"},
		{`{"session_id":"x"} {"session_id":"y"}`, "unknown"}, // two values are malformed
	} {
		if got := SessionKey(payload(t, c.payload)); got != c.want {
			t.Errorf("SessionKey(%s) = %q, want %q", c.payload, got, c.want)
		}
	}
}

// The marker store's bucket for a missing id is the session-name rule's.
func TestUnknownIsTheRulesBucket(t *testing.T) {
	if name, ok := sessionname.Of("", sessionname.TurnState); Unknown != name || !ok {
		t.Fatalf("Unknown %q, rule gives %q, %v", Unknown, name, ok)
	}
}

// The reset's deletions and the reaper.
func TestResetAndReap(t *testing.T) {
	s := newStore(t)
	now := time.Now()
	os.MkdirAll(filepath.Join(s.Dir, "digests"), 0o777)
	os.MkdirAll(filepath.Join(s.Dir, "s.emptydir"), 0o777)
	os.MkdirAll(filepath.Join(s.Dir, "s.fulldir", "x"), 0o777)
	files := map[string]time.Duration{
		"s.turn":             72 * time.Hour, // the session's own turn: refreshed, kept
		"s.how_do_i":         0,
		"s0.turn":            0, // another session whose name starts with s
		"other.turn":         49 * time.Hour,
		"other.how_do_i":     47 * time.Hour,
		"stray.txt":          50 * time.Hour, // any top-level regular file is reaped
		"digests/old.digest": 100 * time.Hour,
	}
	for name, age := range files {
		p := filepath.Join(s.Dir, name)
		os.WriteFile(p, nil, 0o666)
		os.Chtimes(p, now.Add(-age), now.Add(-age))
	}
	os.Symlink("/nonexistent", filepath.Join(s.Dir, "s.link"))
	old := filepath.Join(s.Dir, "oldlink")
	os.Symlink("/etc/hostname", old)
	if err := s.Reset("s", now); err == nil {
		t.Log("reset reported no error (the non-empty s.fulldir stays)")
	}
	got := strings.Join(names(t, s.Dir), " ")
	want := "digests oldlink other.how_do_i s.fulldir s.turn s0.turn"
	if got != want {
		t.Fatalf("after reset: %s\nwant %s", got, want)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "digests", "old.digest")); err != nil {
		t.Fatal("the reaper descended into digests/")
	}
	fi, _ := os.Stat(filepath.Join(s.Dir, "s.turn"))
	if now.Sub(fi.ModTime()) > time.Minute {
		t.Fatal("reset did not refresh s.turn")
	}
}

// A marker that is a planted symlink is never written through, and a FIFO
// is never waited on.
func TestMarkRefusesLinks(t *testing.T) {
	s := newStore(t)
	os.MkdirAll(s.Dir, 0o777)
	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("keep"), 0o666)
	os.Symlink(victim, filepath.Join(s.Dir, "s.how_do_i"))
	if err := s.Mark("s", HowDoI); err == nil {
		t.Fatal("Mark wrote through a symlink")
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Fatal("the symlink's target was truncated")
	}
}

func TestMarkCreatesDir(t *testing.T) {
	s := Store{Dir: filepath.Join(t.TempDir(), "a", "b", "c")}
	if err := s.Mark("s", HowDoI); err != nil || !s.IsMarked("s", HowDoI) {
		t.Fatalf("mark did not create the directory: %v", err)
	}
}
