package recordwrite

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestMistakeRow(t *testing.T) {
	m := Mistake{TS: "t", Category: "c", Trigger: "human", Description: `it's "quoted"`, Correction: "x", Severity: "low"}
	want := `{"ts":"t","project":"","session":"","category":"c","trigger":"human","description":"it's \"quoted\"","correction":"x","skill":"","severity":"low","scenario_matched":""}` + "\n"
	if got := string(m.Row()); got != want {
		t.Errorf("row\n got %s\nwant %s", got, want)
	}
	m.ScenarioMatched, m.Pattern, m.RecurrenceOf = "null", "p", "r"
	want = strings.Replace(want, `"scenario_matched":""}`, `"scenario_matched":null,"pattern":"p","recurrence_of":"r"}`, 1)
	if got := string(m.Row()); got != want {
		t.Errorf("row\n got %s\nwant %s", got, want)
	}
}

func TestCountPattern(t *testing.T) {
	rows := strings.Join([]string{
		`{"pattern":"fm1"}`,
		`{ "pattern" : "fm1" , "x": 1 }`,
		`{"pattern":"\u0066m1"}`,
		`{"pattern":"fm1x"}`,
		`{"description":"\"pattern\":\"fm1\""}`, // the substring upstream counted
		`not json "pattern":"fm1"`,
		`["pattern","fm1"]`,
		`{"PATTERN":"fm1"}`,
		`{"pattern":"fm1"}`, // last line, no LF
	}, "\n")
	n, err := CountPattern(strings.NewReader(rows), "fm1")
	if err != nil || n != 4 {
		t.Fatalf("CountPattern = %d, %v; want 4", n, err)
	}
	// A line over the cap is skipped, and the next line still counts.
	big := `{"pattern":"fm1","d":"` + strings.Repeat("x", MaxRowBytes) + `"}` + "\n" + `{"pattern":"fm1"}` + "\n"
	if n, err := CountPattern(strings.NewReader(big), "fm1"); err != nil || n != 1 {
		t.Fatalf("CountPattern over the cap = %d, %v; want 1", n, err)
	}
}

func TestRenderQuotesHostileValues(t *testing.T) {
	hostile := []string{"x\nid: evil", "---", "a\x00b", "title: x\nid: evil", "#c", "[a", "{", "a: b", "'q'", `"q"`,
		"null", "~", " lead", "trail ", "\u2028", "\u0085", "\ufeff", "\x7f", "- a", "&a", "*a", "!!int 3", "|", ">",
		"@x", "`x", "%x", "? x", strings.Repeat("é\n", 1<<19)}
	for _, v := range hostile {
		for _, kind := range []Kind{Scalar, Fragment, JSONString} {
			r := Record{Fields: []Field{{Key: "id", Value: "x"}, {Key: "v", Kind: kind, Value: v},
				{Key: "links", Kind: FlowMap, Sub: []Field{{Key: "scenario", Value: v}}}, {Key: "status", Value: "active"}},
				Body: []byte("# " + v + "\n---\nid: evil\n")}
			out, err := r.Render()
			if err != nil {
				t.Fatalf("Render(%q, kind %d): %v", trunc(v), kind, err)
			}
			rb := Read(out)
			if !rb.Clean || !slices.Equal(rb.Keys, []string{"id", "v", "links", "status"}) || rb.Scalar("id") != "x" {
				t.Fatalf("Render(%q, kind %d) reads back as %v:\n%s", trunc(v), kind, rb.Keys, trunc(string(out)))
			}
			if kind != Fragment && rb.Scalar("v") != v {
				t.Errorf("Render(%q, kind %d): value reads back as %q", trunc(v), kind, trunc(rb.Scalar("v")))
			}
			if l := rb.Leaves("links"); len(l) != 1 || l[0] != v {
				t.Errorf("Render(%q): link reads back as %q", trunc(v), l)
			}
		}
	}
	if _, err := (Record{Fields: []Field{{Key: "k", Value: "a\xffb"}}}).Render(); !errors.Is(err, ErrInvalidUTF8) {
		t.Errorf("invalid UTF-8: err %v, want ErrInvalidUTF8", err)
	}
}

func trunc(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// FuzzRender: whatever the values, a rendered record reads back as exactly
// its keys and values (the check Render makes, repeated here on its
// output), or Render refuses invalid UTF-8.
func FuzzRender(f *testing.F) {
	for _, s := range []string{"active", "x\nid: evil", "---", "a\x00b", "\xff", "[a, b]", "{ decisions: [dec.x] }", "'", "\"", "#", ": x"} {
		f.Add(s, s, s, s)
	}
	f.Fuzz(func(t *testing.T, scalar, fragment, js, sub string) {
		r := Record{Fields: []Field{
			{Key: "id", Value: "fm.x"},
			{Key: "keywords", Kind: Fragment, Value: fragment},
			{Key: "rule", Kind: JSONString, Value: js},
			{Key: "links", Kind: FlowMap, Sub: []Field{{Key: "scenario", Value: sub}}},
			{Key: "status", Value: scalar},
		}, Body: []byte("# " + scalar + "\n")}
		out, err := r.Render()
		if err != nil {
			if !errors.Is(err, ErrInvalidUTF8) {
				t.Fatalf("Render: %v", err)
			}
			return
		}
		rb := Read(out)
		if !rb.Clean || !slices.Equal(rb.Keys, []string{"id", "keywords", "rule", "links", "status"}) {
			t.Fatalf("keys %v from\n%q", rb.Keys, out)
		}
		if rb.Scalar("status") != scalar || rb.Scalar("rule") != js || !slices.Equal(rb.Leaves("links"), []string{sub}) {
			t.Fatalf("values differ in\n%q", out)
		}
		if !bytes.Equal(rb.Body, r.Body) {
			t.Fatalf("body differs in\n%q", out)
		}
	})
}

func TestCreateNeverReplaces(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.md")
	if err := Create(p, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := Create(p, []byte("two")); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second Create: %v, want fs.ErrExist", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "one" {
		t.Fatalf("content %q", b)
	}
	assertOnly(t, filepath.Dir(p), "r.md")
}

func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if !slices.Equal(got, names) {
		t.Fatalf("%s holds %v, want %v", dir, got, names)
	}
}

func TestAppendOneWrite(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a", "b", "m.jsonl")
	calls := 0
	orig := appendWrite
	t.Cleanup(func() { appendWrite = orig })
	appendWrite = func(f *os.File, b []byte) error { calls++; return orig(f, b) }
	row := Mistake{TS: "t"}.Row()
	if err := Append(p, row); err != nil {
		t.Fatal(err)
	}
	if err := Append(p, row); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if calls != 2 || !bytes.Equal(b, append(append([]byte{}, row...), row...)) {
		t.Fatalf("calls %d, content %q", calls, b)
	}
	var v map[string]any
	if err := json.Unmarshal(row, &v); err != nil {
		t.Fatal(err)
	}
	if err := Append(p, make([]byte, MaxRowBytes+1)); err == nil {
		t.Fatal("a row over the cap was appended")
	}
}
