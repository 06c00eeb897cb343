package queryrecords

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/config"
)

func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		full := filepath.Join(root, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

const decision = "---\nid: dec.sample-quokka\nkind: decision\ndate: 2026-06-12\nkeywords: [quokkadec, autonomy, delegation]\nlinks: {}\nstatus: active\n---\n# Sample decision record\n\nBody about a quokkadec decision.\n"

func baseRoot(t *testing.T) string {
	return tree(t, map[string]string{
		"references/decisions/sample-decision.md": decision,
		"references/solutions/sample-fix.md":      "---\nid: sol.sample-fix\nkind: solution\nkeywords: [autonomy, recipe, fixpattern]\nlinks: { decisions: [dec.sample-quokka] }\nproject: langwatch/langwatch\n---\n# Sample solution\n",
		"mistakes.jsonl":                          `{"description":"forgot the quokkafact check","pattern":"skipped-check"}` + "\n",
	})
}

type result struct {
	code           int
	stdout, stderr string
}

func invoke(env map[string]string, args ...string) result {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb, config.QueryFrom(cli.MapEnv(env)))
	return result{code, out.String(), errb.String()}
}

func TestRunExitCodesAndMessages(t *testing.T) {
	root := baseRoot(t)
	env := map[string]string{"QUERY_RECORDS_ROOT": root}
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{nil, 2, "query-records: need at least one of --keyword/--kind/--id/--links-to/--recall/--project\n"},
		{[]string{"--bogus", "--kind", "a", "--kind", "b"}, 2, "query-records: unknown flag: --bogus\n"},
		{[]string{"--kind", "a", "--kind", "b", "--bogus"}, 2, "query-records: --kind given more than once — each flag may appear at most once.\n"},
		{[]string{"--keyword", "x", "--keyword", "y"}, 2, "query-records: --keyword given more than once — each flag may appear at most once.\nquery-records: to search several terms, put them in ONE string: --keyword \"term1 term2\" (ranked OR union).\n"},
		{[]string{""}, 2, "query-records: unknown flag: \n"},
		{[]string{"--keyword=foo"}, 2, "query-records: unknown flag: --keyword=foo\n"},
		{[]string{"--keyword", "--kind", "decision"}, 2, "query-records: unknown flag: decision\n"},
		{[]string{"--kind"}, 2, "query-records: --kind needs a value\n"},
		{[]string{"--kind", "x", "--list-stores"}, 2, "query-records: unknown flag: --list-stores\n"},
		{[]string{"--limit", "abc", "--cat", "x"}, 2, "query-records: --limit needs a non-negative integer (0 = uncapped)\n"},
		{[]string{"--limit", "-1", "--kind", "x"}, 2, "query-records: --limit needs a non-negative integer (0 = uncapped)\n"},
		{[]string{"--limit", "+5", "--kind", "x"}, 2, "query-records: --limit needs a non-negative integer (0 = uncapped)\n"},
		{[]string{"--keyword", "x", "--cat", "p"}, 2, "query-records: --cat is its own mode — it dumps the records you name, so it takes no query flags\n"},
		{[]string{"--full", "--cat", "p"}, 2, "query-records: --cat is its own mode — it dumps the records you name, so it takes no query flags\n"},
		{[]string{"--limit", "0", "--cat", "p"}, 2, "query-records: --cat is its own mode — --limit caps a match set, and --cat has none\n"},
		{[]string{"--cat"}, 2, "query-records: --cat needs at least one record path (space-separated).\n"},
		{[]string{"--cat", "--"}, 2, "query-records: --cat needs at least one record path (space-separated).\n"},
		{[]string{"--cat", "p", "--kind", "decision"}, 2, "query-records: --cat is its own mode — it takes record paths, and cannot be combined with --kind\n"},
		{[]string{"--cat", "p", "--cat", "q"}, 2, "query-records: --cat is its own mode — it takes record paths, and cannot be combined with --cat\n"},
		{[]string{"--recall", "x", "--kind", "y"}, 2, "query-records: --recall is its own mode — combine only with --limit\n"},
		{[]string{"--recall", "x", "--full"}, 2, "query-records: --recall is its own mode — combine only with --limit\n"},
		{[]string{"--recall", "a b"}, 2, "query-records: --recall \"a b\" has no token of 2+ characters — nothing to search.\nquery-records: this is NOT 'no matches'. Tokens shorter than 2 characters are dropped; use a longer term.\n"},
		{[]string{"--keyword", "a b"}, 2, "query-records: --keyword \"a b\" has no token of 2+ characters — nothing to search.\nquery-records: this is NOT 'no matches'. Tokens shorter than 2 characters are dropped; use a longer term.\n"},
		{[]string{"--full"}, 2, "query-records: need at least one of --keyword/--kind/--id/--links-to/--recall/--project\n"},
		{[]string{"--kind", ""}, 2, "query-records: need at least one of --keyword/--kind/--id/--links-to/--recall/--project\n"},
		{[]string{"--cat", "dec.alpha", "foo", ""}, 2, "query-records: --cat: not a record in the scanned stores: dec.alpha\nquery-records: --cat: not a record in the scanned stores: foo\nquery-records: --cat: not a record in the scanned stores: (empty)\nquery-records: --cat reads only records the same scan returns (see --list-stores); nothing was dumped.\nquery-records: --cat takes record PATHS. To fetch by record id, use: --id <id> --full\n"},
		{[]string{"--cat", "references/decisions/sample-decision.md\n" + root + "/mistakes.jsonl"}, 2, "query-records: --cat: not a record in the scanned stores: " + root + "/mistakes.jsonl\nquery-records: --cat reads only records the same scan returns (see --list-stores); nothing was dumped.\n"},
		{[]string{"--kind", "decision", "--full", "--full"}, 0, ""},
		{[]string{"--keyword", "", "--cat", "references/decisions/sample-decision.md"}, 0, ""},
		{[]string{"--rel-ratio", "1", "--k-floor", "x", "--cat", "references/decisions/sample-decision.md"}, 0, ""},
	} {
		r := invoke(env, tc.args...)
		if r.code != tc.code || r.stderr != tc.stderr {
			t.Errorf("%q: exit %d stderr %q; want exit %d stderr %q", tc.args, r.code, r.stderr, tc.code, tc.stderr)
		}
		if tc.code != 0 && r.stdout != "" {
			t.Errorf("%q: stdout %q on exit %d", tc.args, r.stdout, tc.code)
		}
	}
}

func TestRunOutputs(t *testing.T) {
	root := baseRoot(t)
	env := map[string]string{"QUERY_RECORDS_ROOT": root}
	dump := "\n==> references/decisions/sample-decision.md <==\n" + decision
	for _, tc := range []struct {
		env    map[string]string
		args   []string
		stdout string
	}{
		{env, []string{"--kind", "decision"}, "references/decisions/sample-decision.md — Sample decision record\n"},
		{env, []string{"--keyword", "autonomy"}, "references/decisions/sample-decision.md — Sample decision record\nreferences/solutions/sample-fix.md — Sample solution\n"},
		{env, []string{"--links-to", "dec.sample-quokka"}, "references/solutions/sample-fix.md — Sample solution\n"},
		{env, []string{"--project", "langwatch"}, "references/solutions/sample-fix.md — Sample solution\n"},
		{env, []string{"--kind", "decision", "--full"}, "references/decisions/sample-decision.md — Sample decision record\n" + dump},
		{env, []string{"--cat", "--", "./references/decisions/sample-decision.md"}, dump},
		{env, []string{"--cat", root + "/references/decisions/sample-decision.md", "references/decisions/sample-decision.md"}, dump},
		{env, []string{"--recall", "skipped_check"}, "recall: 1 matched\n" + `{"description":"forgot the quokkafact check","pattern":"skipped-check"}` + "\n"},
		{env, []string{"--list-stores", "--bogus"}, strings.Join([]string{"references/failure-modes", "references/decisions", "references/solutions", "references/procedures", "references/research", "plans", "references/principles", "references/invariants", "references/policies", "references/standards", "titw"}, "\n") + "\n"}, // issue 18: as upstream
		{env, []string{"--keyword", "zzzznonexistentquux", "--full"}, ""},
		{env, []string{"--keyword", "autonomy", "--limit", "99999999999999999999999"}, "references/decisions/sample-decision.md — Sample decision record\nreferences/solutions/sample-fix.md — Sample solution\n"},
		{env, []string{"--keyword", "autonomy", "--limit", "01"}, "references/decisions/sample-decision.md — Sample decision record\n"},
	} {
		r := invoke(tc.env, tc.args...)
		if r.code != 0 || r.stdout != tc.stdout {
			t.Errorf("%q: exit %d stdout\n%s\nwant\n%s\nstderr %s", tc.args, r.code, r.stdout, tc.stdout, r.stderr)
		}
	}
}

func TestRunRootAndRecallStore(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	r := invoke(map[string]string{"QUERY_RECORDS_ROOT": missing, "QUERY_RECORDS_EXTRA_STORES": "/etc"}, "--bogus")
	if r.code != 0 || r.stdout != "" || !strings.HasPrefix(r.stderr, "query-records: cannot enter corpus root "+missing+": ") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("missing root: %+v", r)
	}
	if r := invoke(map[string]string{}, "--kind", "x"); r.code != 1 || r.stdout != "" {
		t.Errorf("HOME unset: %+v", r)
	}
	root := baseRoot(t)
	os.Remove(filepath.Join(root, "mistakes.jsonl"))
	r = invoke(map[string]string{"QUERY_RECORDS_ROOT": root}, "--recall", "x")
	if r.code != 3 || r.stderr != "query-records: recall store not found: "+root+"/mistakes.jsonl — NOT 'no matches'\n" {
		t.Errorf("missing recall store: %+v", r)
	}
	// A relative root finds its own mistakes.jsonl.
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	os.Chdir(filepath.Dir(root))
	os.WriteFile(filepath.Join(root, "mistakes.jsonl"), []byte(`{"pattern":"relroot-hit"}`+"\n"), 0o644)
	r = invoke(map[string]string{"QUERY_RECORDS_ROOT": filepath.Base(root)}, "--recall", "relroot-hit", "--limit", "010")
	if r.code != 0 || r.stdout != "recall: 1 matched\n{\"pattern\":\"relroot-hit\"}\n" {
		t.Errorf("relative root recall: %+v", r)
	}
}

func TestRunStoreWarnings(t *testing.T) {
	root := baseRoot(t)
	r := invoke(map[string]string{"QUERY_RECORDS_ROOT": root, "QUERY_RECORDS_EXTRA_STORES": "/etc\tfoo..bar  a?b [x] ok\nnext"}, "--bogus")
	want := "stores.sh: ignoring invalid QUERY_RECORDS_EXTRA_STORES entry: /etc\nstores.sh: ignoring invalid QUERY_RECORDS_EXTRA_STORES entry: foo..bar\nstores.sh: ignoring invalid QUERY_RECORDS_EXTRA_STORES entry: a?b\nstores.sh: ignoring invalid QUERY_RECORDS_EXTRA_STORES entry: [x]\nquery-records: unknown flag: --bogus\n"
	if r.code != 2 || r.stderr != want {
		t.Errorf("got %+v", r)
	}
}

type epipeWriter struct{}

func (epipeWriter) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.EPIPE}
}

func TestRunEPIPEIsQuiet(t *testing.T) {
	root := baseRoot(t)
	var errb bytes.Buffer
	code := run([]string{"--kind", "decision", "--full"}, epipeWriter{}, &errb,
		config.QueryFrom(cli.MapEnv(map[string]string{"QUERY_RECORDS_ROOT": root})))
	if code != 0 || errb.Len() != 0 {
		t.Errorf("EPIPE: exit %d stderr %q", code, errb.String())
	}
}

func TestParseRatio(t *testing.T) {
	for in, want := range map[string]float64{
		"0.1": 0.1, ".1": 0.1, "+0.1": 0.1, "1e-1": 0.1, "0.1abc": 0.1, " 0.1": 0.1,
		"abc": 0, "-1": -1, "0": 0, "5": 5, "0x1": 0, "inf": 0, "nan": 0, "1e": 1, "1.": 1, ".": 0, "1e+": 1,
	} {
		if got := parseRatio(in); got != want {
			t.Errorf("parseRatio(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestCollector pins the collector's setting: Main turns it off, with a
// soft memory limit, unless GOGC (or, for the limit, GOMEMLIMIT) is set,
// and restores the process's afterwards (the scenarios run many commands
// in one process).
func TestCollector(t *testing.T) {
	for _, c := range []struct {
		env        map[string]string
		off, limit bool
	}{
		{nil, true, true},
		{map[string]string{"GOGC": ""}, true, true},
		{map[string]string{"GOGC": "100"}, false, false},
		{map[string]string{"GOGC": "100", "GOMEMLIMIT": "1GiB"}, false, false},
		{map[string]string{"GOMEMLIMIT": "64MiB"}, true, false},
	} {
		if off, limit := collector(config.QueryFrom(cli.MapEnv(c.env))); off != c.off || limit != c.limit {
			t.Errorf("%v: collector off %v, limit %v; want %v, %v", c.env, off, limit, c.off, c.limit)
		}
	}
	before := debug.SetGCPercent(123)
	defer debug.SetGCPercent(before)
	limit := debug.SetMemoryLimit(456 << 20)
	defer debug.SetMemoryLimit(limit)
	var out, errb bytes.Buffer
	Main([]string{"--list-stores"}, nil, &out, &errb, cli.MapEnv(map[string]string{"QUERY_RECORDS_ROOT": t.TempDir()}))
	if got := debug.SetGCPercent(123); got != 123 {
		t.Errorf("after Main the collector target is %d, want the process's 123 back", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 456<<20 {
		t.Errorf("after Main the memory limit is %d, want the process's %d back", got, 456<<20)
	}
}
