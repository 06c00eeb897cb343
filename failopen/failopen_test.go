package failopen

import (
	"bytes"
	"encoding/json"
	"github.com/procedures-go/procedures/internal/gatelog"
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

// Exact bytes, key order, UTC second-precision ts.
func TestLineExactBytes(t *testing.T) {
	got := string(line(fixed, "digest-record", "malformed-payload", ""))
	want := `{"ts":"2026-11-30T07:34:26Z","gate":"digest-record","why":"malformed-payload","session_id":""}` + "\n"
	if got != want {
		t.Fatalf("line =\n%s want\n%s", got, want)
	}
	ts := parseRecord(t, []byte(got))[0]
	if !regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$`).MatchString(ts) {
		t.Fatalf("ts %q has the wrong form", ts)
	}
}

// Forged and odd fields are sanitised, and a reason outside the closed set
// is prefixed unrecognized: (the direct-call table observed of the bash
// original).
func TestLineSanitiseAndClassify(t *testing.T) {
	for _, c := range []struct {
		name                string
		gate, why, sid      string
		wantG, wantW, wantS string
	}{
		{"forged session_id", "how-do-i", "malformed-payload", `evil","injected":"yes`, "how-do-i", "malformed-payload", "evil___injected_:_yes"},
		{"forged why", "how-do-i", `store-unwritable","injected":"yes`, "sess1", "how-do-i", "unrecognized:store-unwritable___injected_:_yes", "sess1"},
		{"forged gate", `evil","injected":"yes`, "internal-error", "s1", "evil___injected_:_yes", "internal-error", "s1"},
		{"newline in session", "how-do-i", "skill-unresolvable", "a\nb", "how-do-i", "skill-unresolvable", "a_b"},
		{"newline in gate", "a\nb", "skill-unresolvable", "s", "a_b", "skill-unresolvable", "s"},
		{"newline in why", "g", "skill-\nunresolvable", "s", "g", "unrecognized:skill-_unresolvable", "s"},
		{"unknown why", "g", "brand-new-condition", "s", "g", "unrecognized:brand-new-condition", "s"},
		{"defaults", "", "", "", "unknown", "unrecognized:unknown", ""},
		{"slash and symbols", "how-do-i", "x/y", "a+b=c~d", "how-do-i", "unrecognized:x_y", "a_b_c_d"},
		{"spaced", "g", "skill unresolvable", "", "g", "unrecognized:skill_unresolvable", ""},
		{"upper case", "g", "SKILL-UNRESOLVABLE", "", "g", "unrecognized:SKILL-UNRESOLVABLE", ""},
		{"double prefix", "g", "unrecognized:x", "", "g", "unrecognized:unrecognized:x", ""},
		{"byte-wise", "gé", "internal-error", "été", "g__", "internal-error", "__t__"},
		{"raw id with dots", "digest-record", "payload-shape-unrecognized", "sess/../weird id.42", "digest-record", "payload-shape-unrecognized", "sess_.._weird_id.42"},
		// The bash original's own reasons are no longer written by a Go hook:
		// a caller passing one is quarantined like any other.
		{"bash-only no-jq", "g", "no-jq", "", "g", "unrecognized:no-jq", ""},
		{"bash-only lib-unreadable", "g", "lib-unreadable:turn-state", "", "g", "unrecognized:lib-unreadable:turn-state", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := parseRecord(t, line(fixed, c.gate, c.why, c.sid))
			if got[1] != c.wantG || got[2] != c.wantW || got[3] != c.wantS {
				t.Fatalf("gate/why/sid = %q/%q/%q, want %q/%q/%q", got[1], got[2], got[3], c.wantG, c.wantW, c.wantS)
			}
		})
	}
}

// Every member of the closed set survives unchanged.
func TestClosedSetSurvives(t *testing.T) {
	for _, why := range []string{
		WhyResetHookNeverRan, WhyActivityUndetermined, WhyStoreUnwritable, WhyPayloadShapeUnrecognized,
		WhyMalformedPayload, WhyNonObjectPayload, WhySkillUnresolvable, WhyInternalError,
	} {
		if got := parseRecord(t, line(fixed, "g", why, ""))[2]; got != why {
			t.Errorf("why %q recorded as %q", why, got)
		}
	}
}

// Append, never truncate; one row per call, no deduplication.
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

// A missing directory, a directory or a read-only file is a silent,
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
	f.Add("how-do-i", "malformed-payload", `evil","injected":"yes`)
	f.Add("how-do-i", `lib-unreadable:x","injected":"yes`, "sess1")
	f.Add(`evil","injected":"yes`, "internal-error", "s1")
	f.Add("g", "w", "a\nb\r\x00\u2028\"\\")
	f.Add("", "", "")
	f.Add("g\xff", "unrecognized:x", "été")
	f.Fuzz(func(t *testing.T, gate, why, sid string) {
		rec := parseRecord(t, line(fixed, gate, why, sid))
		if rec[0] != "2026-11-30T07:34:26Z" {
			t.Fatalf("ts = %q", rec[0])
		}
		// A quarantined why gains its prefix after the cap (doc.go,
		// TestFieldsCapped): the sanitised, capped value is what follows it.
		w := rec[2]
		if inSet := classify(w) == w; !inSet {
			q, ok := strings.CutPrefix(w, gatelog.UnrecognizedPrefix)
			if !ok || classify(q) == q {
				t.Fatalf("why %q escaped the closed set", w)
			}
			w = q
		}
		for _, v := range []string{rec[1], w, rec[3]} {
			if gatelog.Sanitize(v) != v {
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

// The zero Log and a nil *Log record nothing and report no error.
func TestZeroLogRecordsNothing(t *testing.T) {
	if err := (&Log{}).Record("g", WhyInternalError, ""); err != nil {
		t.Errorf("zero Log: %v", err)
	}
	var l *Log
	if err := l.Record("g", WhyInternalError, ""); err != nil {
		t.Errorf("nil Log: %v", err)
	}
}
