package failopen

import (
	"bytes"
	"encoding/json"
	"github.com/procedures-go/procedures/internal/proctest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

var fixed = time.Date(2026, 11, 30, 8, 34, 26, 999, time.FixedZone("CET", 3600))

// parseRecord checks the exact shape of one record (one line, keys exactly
// ts,gate,why,session_id in that order, string values) and returns the values.
func parseRecord(t *testing.T, line []byte) [4]string {
	t.Helper()
	if !bytes.HasSuffix(line, []byte("\n")) || bytes.Count(line, []byte("\n")) != 1 {
		t.Fatalf("record is not exactly one line: %q", line)
	}
	if !bytes.HasPrefix(line, []byte(`{"ts":"`)) {
		t.Fatalf("record does not start with {\"ts\":\": %q", line)
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		t.Fatalf("record is not a JSON object: %q (%v)", trunc(line), err)
	}
	var keys, vals []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatalf("bad key in %q: %v", trunc(line), err)
		}
		var v string
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("value of %v in %q is not a string: %v", k, trunc(line), err)
		}
		keys = append(keys, k.(string))
		vals = append(vals, v)
	}
	if _, err := dec.Token(); err != nil {
		t.Fatalf("unterminated object %q: %v", trunc(line), err)
	}
	if got := strings.Join(keys, ","); got != "ts,gate,why,session_id" {
		t.Fatalf("keys = %s, want ts,gate,why,session_id (record %q)", got, line)
	}
	return [4]string{vals[0], vals[1], vals[2], vals[3]}
}

// FO-01, FO-02: exact bytes, key order, UTC second-precision ts.
func TestLineExactBytes(t *testing.T) {
	got := string(Line(fixed, "digest-record", "malformed-payload", ""))
	want := `{"ts":"2026-11-30T07:34:26Z","gate":"digest-record","why":"malformed-payload","session_id":""}` + "\n"
	if got != want {
		t.Fatalf("Line =\n%s want\n%s", got, want)
	}
	ts := parseRecord(t, []byte(got))[0]
	if !regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$`).MatchString(ts) {
		t.Fatalf("ts %q has the wrong form", ts)
	}
}

// FO-03..FO-09 and the observed direct-call table of spec 4.6.
func TestLineSanitiseAndClassify(t *testing.T) {
	for _, c := range []struct {
		name                string
		gate, why, sid      string
		wantG, wantW, wantS string
	}{
		{"FO-03 forged session_id", "how-do-i", "no-jq", `evil","injected":"yes`, "how-do-i", "no-jq", "evil___injected_:_yes"},
		{"FO-04 forged why on lib-unreadable arm", "how-do-i", `lib-unreadable:x","injected":"yes`, "sess1", "how-do-i", "lib-unreadable:x___injected_:_yes", "sess1"},
		{"FO-05 forged gate", `evil","injected":"yes`, "no-jq", "s1", "evil___injected_:_yes", "no-jq", "s1"},
		{"FO-06 newline in session", "how-do-i", "no-jq", "a\nb", "how-do-i", "no-jq", "a_b"},
		{"FO-06 newline in gate", "a\nb", "no-jq", "s", "a_b", "no-jq", "s"},
		{"FO-06 newline in why", "g", "no-\njq", "s", "g", "unrecognized:no-_jq", "s"},
		{"FO-07 unknown why", "g", "brand-new-condition", "s", "g", "unrecognized:brand-new-condition", "s"},
		{"defaults", "", "", "", "unknown", "unrecognized:unknown", ""},
		{"slash and symbols", "how-do-i", "x/y", "a+b=c~d", "how-do-i", "unrecognized:x_y", "a_b_c_d"},
		{"FO-09 no jq", "g", "no jq", "", "g", "unrecognized:no_jq", ""},
		{"FO-09 NO-JQ", "g", "NO-JQ", "", "g", "unrecognized:NO-JQ", ""},
		{"FO-09 double prefix", "g", "unrecognized:x", "", "g", "unrecognized:unrecognized:x", ""},
		{"FO-09 byte-wise", "gé", "no-jq", "été", "g__", "no-jq", "__t__"},
		{"raw id with dots", "digest-record", "payload-shape-unrecognized", "sess/../weird id.42", "digest-record", "payload-shape-unrecognized", "sess_.._weird_id.42"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := parseRecord(t, Line(fixed, c.gate, c.why, c.sid))
			if got[1] != c.wantG || got[2] != c.wantW || got[3] != c.wantS {
				t.Fatalf("gate/why/sid = %q/%q/%q, want %q/%q/%q", got[1], got[2], got[3], c.wantG, c.wantW, c.wantS)
			}
		})
	}
}

// FO-08: every member of the closed set survives unchanged.
func TestClosedSetSurvives(t *testing.T) {
	for _, why := range []string{
		"no-jq", "reset-hook-never-ran", "activity-undetermined", "lib-unreadable:turn-state",
		"lib-unreadable:", "lib-unreadable:session-digest", "store-unwritable",
		"payload-shape-unrecognized", "malformed-payload", "non-object-payload", "skill-unresolvable",
	} {
		if got := parseRecord(t, Line(fixed, "g", why, ""))[2]; got != why {
			t.Errorf("why %q recorded as %q", why, got)
		}
	}
}

func setenv(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// FO-12: GATE_FAILOPEN_LOG wins; empty selects $HOME/.claude; HOME unset is
// treated as empty.
func TestPath(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"GATE_FAILOPEN_LOG": "/x/log", "HOME": "/h"}, "/x/log"},
		{map[string]string{"GATE_FAILOPEN_LOG": "", "HOME": "/h"}, "/h/.claude/gate-failopen.jsonl"},
		// Spelled as bash's "$HOME/.claude/gate-failopen.jsonl" spells it: never
		// cleaned, so ".." after a symlink means what the kernel says it means.
		{map[string]string{"HOME": "/h/"}, "/h//.claude/gate-failopen.jsonl"},
		{map[string]string{"HOME": "/h/link/.."}, "/h/link/../.claude/gate-failopen.jsonl"},
		{map[string]string{}, "/.claude/gate-failopen.jsonl"},
	} {
		if got := Path(setenv(c.env)); got != c.want {
			t.Errorf("Path(%v) = %q, want %q", c.env, got, c.want)
		}
	}
}

// FO-10, FO-13: append, never truncate; one row per call, no deduplication.
func TestRecordAppends(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log.jsonl")
	l := &Log{Path: p, Now: func() time.Time { return fixed }}
	for range 3 {
		if err := l.Record("how-do-i", "reset-hook-never-ran", "s1"); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Repeat(`{"ts":"2026-11-30T07:34:26Z","gate":"how-do-i","why":"reset-hook-never-ran","session_id":"s1"}`+"\n", 3)
	if string(data) != want {
		t.Fatalf("log =\n%s want\n%s", data, want)
	}
}

// FO-11: a missing directory, a directory or a read-only file is a silent,
// returned error; the parent is never created.
func TestRecordBestEffort(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope", "log.jsonl")
	if err := (&Log{Path: missing}).Record("g", "no-jq", ""); err == nil {
		t.Error("Record into a missing directory succeeded")
	}
	if _, err := os.Stat(filepath.Dir(missing)); !os.IsNotExist(err) {
		t.Errorf("parent directory was created (stat: %v)", err)
	}
	if err := (&Log{Path: dir}).Record("g", "no-jq", ""); err == nil {
		t.Error("Record into a directory succeeded")
	}
}

// A read-only log file refuses the record (root would ignore the mode).
func TestRecordIntoReadOnlyFile(t *testing.T) {
	if proctest.RunUnprivileged(t) {
		return // ran as a non-root user in a child process
	}
	ro := filepath.Join(t.TempDir(), "ro.jsonl")
	if err := os.WriteFile(ro, nil, 0o444); err != nil {
		t.Fatal(err)
	}
	if err := (&Log{Path: ro}).Record("g", "no-jq", ""); err == nil {
		t.Error("Record into a read-only file succeeded")
	}
}

// FuzzLine: whatever the fields, the builder yields exactly one line that
// parses as a JSON object with exactly the four keys in order, and the why
// value is in the closed set or quarantined.
func FuzzLine(f *testing.F) {
	f.Add("how-do-i", "no-jq", `evil","injected":"yes`)
	f.Add("how-do-i", `lib-unreadable:x","injected":"yes`, "sess1")
	f.Add(`evil","injected":"yes`, "no-jq", "s1")
	f.Add("g", "w", "a\nb\r\x00\u2028\"\\")
	f.Add("", "", "")
	f.Add("g\xff", "unrecognized:x", "été")
	f.Fuzz(func(t *testing.T, gate, why, sid string) {
		line := Line(fixed, gate, why, sid)
		rec := parseRecord(t, line)
		if rec[0] != "2026-11-30T07:34:26Z" {
			t.Fatalf("ts = %q", rec[0])
		}
		// A quarantined why gains its prefix after the cap (doc.go,
		// TestFieldsCapped): the sanitised, capped value is what follows it.
		w := rec[2]
		if inSet := closedSet[w] || strings.HasPrefix(w, LibUnreadablePrefix); !inSet {
			q, ok := strings.CutPrefix(w, UnrecognizedPrefix)
			if !ok || closedSet[q] || strings.HasPrefix(q, LibUnreadablePrefix) {
				t.Fatalf("why %q escaped the closed set", w)
			}
			w = q
		}
		for _, v := range []string{rec[1], w, rec[3]} {
			if Sanitize(v) != v {
				t.Fatalf("unsanitised value %q", v)
			}
		}
	})
}

func trunc(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}
