package logrecord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/recordwrite"
	"github.com/procedures-go/procedures/internal/testcache"
)

// TestMain lets a test re-execute this binary as log-record: with
// LOGRECORD_TEST_MAIN=1 it runs Main on its arguments and exits.
func TestMain(m *testing.M) {
	if os.Getenv("LOGRECORD_TEST_MAIN") == "1" {
		os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, cli.OSEnv()))
	}
	os.Exit(testcache.Main(m)) // the index in a directory of the run's own
}

func fixClock(t *testing.T, s string) {
	t.Helper()
	at, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	orig := now
	now = func() time.Time { return at }
	t.Cleanup(func() { now = orig })
}

func runMain(t *testing.T, root string, args ...string) (int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, strings.NewReader(""), &out, &errb, cli.MapEnv(map[string]string{"CODEX_ROOT": root, "HOME": "/nonexistent"}))
	if out.Len() != 0 {
		t.Errorf("stdout not empty: %q", out.String())
	}
	return code, errb.String()
}

// Default dates are UTC; resolve_after is today + 3 calendar months, as GNU
// date -d '+3 months' (Nov 30 -> Mar 2). The clock reads 23:30 at UTC-5,
// already the next day in UTC.
func TestDefaultsUseUTCClock(t *testing.T) {
	loc := time.FixedZone("x", -5*3600)
	at := time.Date(2026, 11, 29, 19, 30, 5, 0, loc) // 2026-11-30T00:30:05Z
	orig := now
	now = func() time.Time { return at }
	t.Cleanup(func() { now = orig })
	root := t.TempDir()
	if code, stderr := runMain(t, root, "solution", "--slug", "s", "--keywords", "[k]"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, err := os.ReadFile(root + "/references/solutions/2026-11-30-s.md")
	if err != nil {
		t.Fatal(err)
	}
	want := "---\nid: sol.2026-11-30-s\nkind: solution\ndate: 2026-11-30\nkeywords: [k]\nlinks: {}\nstatus: resolved\nsituation_tags: []\nresolve_after: 2027-03-02\n---\n# s\n\n## Symptom\n[pending]\n\n## Rule\ns\n\n## Check\n[optional]\n\n## Recipe\n[optional]\n"
	if string(got) != want {
		t.Fatalf("solution\n got %q\nwant %q", got, want)
	}
	if code, stderr := runMain(t, root, "mistake", "--category", "c", "--description", "d", "--correction", "x", "--severity", "low", "--trigger", "human"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	row, _ := os.ReadFile(root + "/mistakes.jsonl")
	if !strings.HasPrefix(string(row), `{"ts":"2026-11-30T00:30:05Z","project":"","session":"",`) {
		t.Fatalf("row %s", row)
	}
	if code, _ := runMain(t, root, "failure-mode", "--slug", "f", "--rule", "r", "--keywords", "[k]", "--skip-gate"); code != 0 {
		t.Fatal("failure-mode failed")
	}
	fm, _ := os.ReadFile(root + "/references/failure-modes/f.md")
	if !strings.Contains(string(fm), "\ndate: 2026-11-30\n") {
		t.Fatalf("failure mode date:\n%s", fm)
	}
}

// Every flag value may be hostile. The command either refuses (exit 1, or
// 2 for invalid UTF-8 in a body flag; nothing written) or writes a record that reads back as exactly the keys
// it meant, with the values given, and that passes the lint.
func TestHostileValues(t *testing.T) {
	fixClock(t, "2026-08-10T10:00:00Z")
	values := []string{"x\nid: evil", "title: x\nid: evil", "---", "a\x00b", "a\xffb", "\x7f\u2028",
		strings.Repeat("v", 1<<20), strings.Repeat("\n---\n", 1<<10), "'", "#", "[", "}", "--force"}
	decisionKeys := []string{"id", "kind", "date", "keywords", "links", "status"}
	for _, v := range values {
		for _, flag := range []string{"--title", "--summary", "--body", "--status", "--keywords", "--links", "--project", "--slug", "--date", "--situation-tags", "--resolve-after"} {
			root := t.TempDir()
			args := []string{"solution", "--slug", "s", "--date", "2026-08-10", "--keywords", "[k]", flag, v}
			code, stderr := runMain(t, root, args...)
			file := root + "/references/solutions/2026-08-10-s.md"
			if code != 0 {
				if (code != 1 && code != 2) || !strings.Contains(stderr, "log-record: ") {
					t.Fatalf("%s %q: exit %d, stderr %q", flag, trunc(v), code, trunc(stderr))
				}
				assertNothingWritten(t, root)
				continue
			}
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%s %q: exit 0 but %v", flag, trunc(v), err)
			}
			rb := recordwrite.Read(b)
			wantKeys := append(slices.Clone(decisionKeys), "situation_tags", "resolve_after")
			if flag == "--project" {
				wantKeys = slices.Insert(wantKeys, 6, "project")
			}
			if !rb.Clean || !slices.Equal(rb.Keys, wantKeys) || rb.Scalar("id") != "sol.2026-08-10-s" {
				t.Fatalf("%s %q: keys %v\n%s", flag, trunc(v), rb.Keys, trunc(string(b)))
			}
			if flag == "--status" && rb.Scalar("status") != v {
				t.Errorf("--status %q reads back as %q", trunc(v), trunc(rb.Scalar("status")))
			}
			if rep := recordwrite.Lint(root, file, b); rep.Failed {
				t.Errorf("%s %q: written record fails the lint: %v", flag, trunc(v), rep.Lines)
			}
		}
		// A mistake row is always one JSON object with the documented keys.
		root := t.TempDir()
		if code, stderr := runMain(t, root, "mistake", "--category", v, "--description", v, "--correction", v,
			"--severity", v, "--trigger", v, "--pattern", v, "--scenario-matched", v); code != 0 {
			t.Fatalf("mistake %q: exit %d %s", trunc(v), code, stderr)
		}
		rows, _ := os.ReadFile(root + "/mistakes.jsonl")
		checkRows(t, rows, 1)
	}
}

func trunc(s string) string {
	if len(s) > 50 {
		return s[:50] + "…"
	}
	return s
}

// assertNothingWritten: the root holds no file at all (directories the
// writer may not even have made are allowed to be absent).
func assertNothingWritten(t *testing.T, root string) {
	t.Helper()
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			t.Errorf("refused, but %s was written", p)
		}
		return nil
	})
}

var rowKeys = []string{"ts", "project", "session", "category", "trigger", "description", "correction", "skill", "severity", "scenario_matched"}

// checkRows: want rows, each one JSON object whose keys are the documented
// ones in order (optional keys allowed at the end).
func checkRows(t *testing.T, rows []byte, want int) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(string(rows), "\n"), "\n")
	if len(lines) != want || !bytes.HasSuffix(rows, []byte("\n")) {
		t.Fatalf("%d rows, want %d", len(lines), want)
	}
	for _, l := range lines {
		dec := json.NewDecoder(strings.NewReader(l))
		var keys []string
		tok, err := dec.Token()
		if err != nil || tok != json.Delim('{') {
			t.Fatalf("row is not an object: %q", trunc(l))
		}
		for dec.More() {
			k, _ := dec.Token()
			keys = append(keys, k.(string))
			var v any
			if err := dec.Decode(&v); err != nil {
				t.Fatalf("row %q: %v", trunc(l), err)
			}
		}
		if _, err := dec.Token(); err != nil || dec.More() {
			t.Fatalf("row %q: trailing data", trunc(l))
		}
		if len(keys) < len(rowKeys) || !slices.Equal(keys[:len(rowKeys)], rowKeys) {
			t.Fatalf("row keys %v", keys)
		}
	}
}

// 100 concurrent log-record mistake processes append 100 intact rows.
func TestConcurrentMistakes(t *testing.T) {
	root := t.TempDir()
	big := strings.Repeat("d", 100<<10) // one row much larger than a pipe buffer
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Go(func() {
			cmd := selfExec(root, "mistake", "--category", "c", "--description", fmt.Sprintf("%d-%s", i, big),
				"--correction", "x", "--severity", "low", "--trigger", "human")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("process %d: %v %s", i, err, out)
			}
		})
	}
	wg.Wait()
	rows, _ := os.ReadFile(root + "/mistakes.jsonl")
	checkRows(t, rows, 100)
}

func selfExec(root string, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	// The writers' index goes below root's parent, never into the user's cache.
	cmd.Env = append(os.Environ(), "LOGRECORD_TEST_MAIN=1", "CODEX_ROOT="+root,
		"XDG_CACHE_HOME="+filepath.Join(filepath.Dir(root), "cache"))
	return cmd
}

// 50 concurrent decision writes of one slug without --force: one file,
// 49 "already exists", and the file is one writer's whole record.
func TestConcurrentCreate(t *testing.T) {
	root := t.TempDir()
	var wg sync.WaitGroup
	var mu sync.Mutex
	wrote, exists := 0, 0
	bodies := map[string]bool{}
	for i := range 50 {
		body := fmt.Sprintf("writer %d\n%s", i, strings.Repeat(fmt.Sprintf("%02d", i), 50<<10))
		bodies["# race\n\n"+body+"\n"] = true
		wg.Go(func() {
			var stderr bytes.Buffer
			cmd := selfExec(root, "decision", "--slug", "race", "--date", "2026-08-10", "--keywords", "[k]", "--body", body)
			cmd.Stderr = &stderr
			err := cmd.Run()
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil && strings.HasPrefix(stderr.String(), "log-record: wrote "):
				wrote++
			case err != nil && strings.Contains(stderr.String(), "already exists at"):
				exists++
			default:
				t.Errorf("writer %d: %v %q", i, err, trunc(stderr.String()))
			}
		})
	}
	wg.Wait()
	if wrote != 1 || exists != 49 {
		t.Fatalf("%d wrote, %d already exists; want 1 and 49", wrote, exists)
	}
	dir := root + "/references/decisions"
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("%d entries in %s, want 1 (no temporary files left)", len(ents), dir)
	}
	b, _ := os.ReadFile(filepath.Join(dir, ents[0].Name()))
	_, body, _ := strings.Cut(string(b), "\n---\n")
	if !bodies[body] {
		t.Fatalf("the record is not one writer's whole content (%d bytes)", len(b))
	}
}

// FuzzDecision: whatever the values, a decision is either refused with
// exit 1 (2 for invalid UTF-8 in the title) and nothing written, or written lint-clean, reading back as the
// six keys (plus project) with the id and status given.
func FuzzDecision(f *testing.F) {
	f.Add("s", "[k]", "{}", "active", "", "t")
	f.Add("a..b", "[k]", "{}", "active", "", "t")
	f.Add("s", "[]", "x\nid: evil", "---", "LangWatch/X", "title: x\nid: evil")
	f.Add("s", "k: v", "{ decisions: [dec.none] }", "a\x00b", "a b", "\xff")
	f.Fuzz(func(t *testing.T, slug, keywords, links, status, project, title string) {
		root := t.TempDir()
		code, stderr := runMain(t, root, "decision", "--slug", slug, "--date", "2026-08-10", "--keywords", keywords,
			"--links", links, "--status", status, "--project", project, "--title", title)
		if code != 0 {
			if (code != 1 && code != 2) || !strings.Contains(stderr, "log-record: ") {
				t.Fatalf("exit %d: %q", code, stderr)
			}
			assertNothingWritten(t, root)
			return
		}
		file := root + "/references/decisions/2026-08-10-" + slug + ".md"
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		rb := recordwrite.Read(b)
		want := []string{"id", "kind", "date", "keywords", "links", "status"}
		if project != "" {
			want = append(want, "project")
		}
		if !rb.Clean || !slices.Equal(rb.Keys, want) || rb.Scalar("id") != "dec.2026-08-10-"+slug {
			t.Fatalf("keys %v:\n%q", rb.Keys, b)
		}
		if status != "" && rb.Scalar("status") != status {
			t.Fatalf("status %q reads back as %q", status, rb.Scalar("status"))
		}
		if rep := recordwrite.Lint(root, file, b); rep.Failed {
			t.Fatalf("written but fails the lint: %v", rep.Lines)
		}
	})
}
