package lint

import (
	"errors"
	"github.com/procedures-go/procedures/internal/frontmatter"
	"github.com/procedures-go/procedures/internal/proctest"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestIsLintableRecord(t *testing.T) {
	for _, tc := range []struct {
		path           string
		record, subdoc bool
	}{
		{"references/decisions/x.md", true, false},
		{"plans/deep/er/x.md", true, false},
		{"references/procedures/p/EVOLUTION.md", true, false},
		{"plans/../references/decisions/x.md", true, false},
		{"references/decisions/INDEX.md", false, false},
		{"references/decisions/sub/INDEX.md", false, false},
		{"references/decisions/x.MD", false, false},
		{"references/decisions/x.txt", false, false},
		{"./references/decisions/x.md", false, false},
		{"/abs/references/decisions/x.md", false, false},
		{"references/x.md", false, false},
		{"titw/references/decisions/x.md", false, false},
		{"plans/_archived/old.md", false, true},
		{"references/procedures/p/steps/s.md", false, true},
		{"references/procedures/p/templates/t.md", false, true},
		{"references/research/node_modules/n.md", false, false},
		{"--help", false, false},
	} {
		if got := IsLintableRecord(tc.path); got != tc.record {
			t.Errorf("IsLintableRecord(%q) = %v, want %v", tc.path, got, tc.record)
		}
		if got := IsEditableSubdocument(tc.path); got != tc.subdoc {
			t.Errorf("IsEditableSubdocument(%q) = %v, want %v", tc.path, got, tc.subdoc)
		}
	}
}

const good = "---\nid: dec.a\nkind: decision\ndate: 2026-08-10\nkeywords: [a]\nlinks: {}\nstatus: active\n---\n# A\n"

// str is a finding as the commands print it (internal/lintmsg.Line, which
// this package cannot import), so the expectations read as the output.
func str(f Finding) string {
	if f.Severity == SeverityWarning {
		return "⚠ frontmatter-lint WARNING: " + f.Message
	}
	return "❌ frontmatter-lint: " + f.Message
}

func messages(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, str(f))
	}
	return out
}

func TestLintRecord(t *testing.T) {
	ids := &IDMap{}
	ids.add("dec.a", "references/decisions/a.md")
	ids.add("dec.q", "references/decisions/q.md")
	for _, tc := range []struct {
		name, file, content string
		want                []string
	}{
		{"valid", "references/decisions/a.md", good, nil},
		{"crlf accepted", "references/decisions/a.md", strings.ReplaceAll(good, "\n", "\r\n"), nil},
		{"no block", "references/decisions/x.md", "# x\n",
			[]string{"❌ frontmatter-lint: references/decisions/x.md: missing frontmatter block (first line is not '---')"}},
		{"empty file", "references/decisions/x.md", "",
			[]string{"❌ frontmatter-lint: references/decisions/x.md: missing frontmatter block (first line is not '---')"}},
		{"missing keys in order", "references/decisions/x.md", "---\nid: x\nkeywords: [k]\n---\n", []string{
			"❌ frontmatter-lint: references/decisions/x.md: frontmatter missing required key 'kind:'",
			"❌ frontmatter-lint: references/decisions/x.md: frontmatter missing required key 'date:'",
			"❌ frontmatter-lint: references/decisions/x.md: frontmatter missing required key 'links:'",
			"❌ frontmatter-lint: references/decisions/x.md: frontmatter missing required key 'status:'",
		}},
		{"block list keywords seen", "references/decisions/x.md",
			"---\nid: x\nkind: k\ndate: d\nkeywords:\n  - one\nlinks: {}\nstatus: s\n---\n", nil},
		{"empty keywords", "references/decisions/x.md",
			"---\nid: x\nkind: k\ndate: d\nkeywords: [ ]\nlinks: {}\nstatus: s\n---\n",
			[]string{"❌ frontmatter-lint: references/decisions/x.md: keywords: list is empty (AC21 requires at least one keyword)"}},
		{"principle warning", "references/principles/sub/p.md", good,
			[]string{"⚠ frontmatter-lint WARNING: references/principles/sub/p.md: principle has no 'enforced_by:' — aspirational (not enforced)"}},
		{"project quoted ok", "references/decisions/x.md", strings.Replace(good, "status: active\n", "status: active\nproject: \"a/b\"\n", 1), nil},
		{"project bad", "references/decisions/x.md", strings.Replace(good, "status: active\n", "status: active\nproject: A/b\n", 1),
			[]string{"❌ frontmatter-lint: references/decisions/x.md: project: 'A/b' is malformed — expected <repo> or <owner>/<repo>, characters [a-z0-9._-] (omit the key entirely for a corpus-wide record)"}},
		{"links as YAML", "references/decisions/x.md",
			strings.Replace(good, "links: {}", `links: { decisions: [dec.q, "dec.a"], related: [~, null, dec.nope] }`, 1),
			[]string{"❌ frontmatter-lint: references/decisions/x.md: links target 'dec.nope' resolves to no record id in the corpus"}},
		{"links never globbed", "references/decisions/x.md", strings.Replace(good, "links: {}", `links: { decisions: ["*", "dec.?"] }`, 1),
			[]string{
				"❌ frontmatter-lint: references/decisions/x.md: links target '*' resolves to no record id in the corpus",
				"❌ frontmatter-lint: references/decisions/x.md: links target 'dec.?' resolves to no record id in the corpus",
			}},
		{"line view tokens", "references/decisions/x.md",
			strings.Replace(good, "links: {}", `links: { decisions: [dec.a, "dec.nope"], other: x }`+"\nbad: a: b", 1), []string{
				"⚠ frontmatter-lint WARNING: references/decisions/x.md: frontmatter is not valid YAML (line 7: mapping values are not allowed in this context); checked line by line",
				"❌ frontmatter-lint: references/decisions/x.md: links target 'dec.nope' resolves to no record id in the corpus",
				"❌ frontmatter-lint: references/decisions/x.md: links target 'other:' resolves to no record id in the corpus",
				"❌ frontmatter-lint: references/decisions/x.md: links target 'x' resolves to no record id in the corpus",
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := messages(LintRecord(tc.file, []byte(tc.content), ids))
			if !slices.Equal(got, tc.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestLintTargetsReportsOnlyInvolvedDuplicates(t *testing.T) {
	dup := strings.Replace(good, "dec.a", "dec.dup", 1)
	root := mkTree(t, map[string]string{
		"references/decisions/a.md":  good,
		"references/decisions/d1.md": dup,
		"references/decisions/d2.md": dup,
		"references/decisions/d3.md": dup,
	})
	r, err := LintTargets(root, []string{"references/decisions/a.md"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Failed() || len(r.Duplicates) != 0 {
		t.Errorf("unrelated target: failed=%v duplicates=%v", r.Failed(), r.Duplicates)
	}
	r, err = LintTargets(root, []string{"references/decisions/d2.md"})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Failed() || len(r.Duplicates) != 1 {
		t.Fatalf("involved target: failed=%v duplicates=%v", r.Failed(), r.Duplicates)
	}
	want := "❌ frontmatter-lint: duplicate id 'dec.dup' in: references/decisions/d1.md references/decisions/d3.md"
	if got := str(r.Duplicates[0].Finding()); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := r.IDs.Files("dec.dup"); len(got) != 3 {
		t.Errorf("IDs.Files = %v, want all three copies", got)
	}
}

func TestLintRootNotDir(t *testing.T) {
	root := filepath.Join(t.TempDir(), "missing")
	_, err := LintCorpus(root)
	re, ok := err.(*LintRootError)
	if !ok || re.Err != ErrRootNotDir {
		t.Fatalf("err = %v, want a *LintRootError wrapping ErrRootNotDir", err)
	}
	if got, want := str(re.Finding()), "❌ frontmatter-lint: root "+root+" is not a directory"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// FuzzLintRecord: any content lints without panicking, and every finding
// names the file it is about.
func FuzzLintRecord(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte("---\n id: x\nlinks: { a: [b, \"c], d: *\n---\n"))
	f.Add([]byte("---\r\nkeywords:\r\n  - a\r\n"))
	f.Add([]byte("---\nlinks: &a [*a]\nproject: 'x\n"))
	f.Add([]byte(""))
	f.Add([]byte("---\nid: x\nsee: *nope\n--- \ny: \x00\n---\n"))
	ids := &IDMap{}
	ids.add("dec.a", "references/decisions/a.md")
	f.Fuzz(func(t *testing.T, content []byte) {
		for _, fd := range LintRecord("references/principles/p.md", content, ids) {
			if !strings.HasPrefix(fd.Message, "references/principles/p.md: ") || fd.Rule == "" {
				t.Fatalf("finding %+v does not name its file and rule", fd)
			}
			if fd.Rule == RuleYAML && (fd.Severity != SeverityWarning || strings.Contains(fd.Message, "(line 0:")) {
				t.Fatalf("YAML finding %+v: want a warning naming a real line", fd)
			}
		}
	})
}

// TestYAMLFindingLine: a YAML error always names a real file line, or none.
func TestYAMLFindingLine(t *testing.T) {
	for _, tc := range []struct{ content, want string }{
		{"---\nid: x\nsee: *nope\n---\n", "(line 3: unknown anchor 'nope' referenced)"},
		{"---\nid: x\n--- # two\ny: 1\n---\n", "(line 3: the block holds more than one YAML document)"},
		{"---\nid: x\ntitle: a: b\n---\n", "(line 3: mapping values are not allowed in this context)"},
		// yaml.v3 omits the line of an error on the block's first line.
		{"---\ntitle: a: b\nid: x\n---\n", "(line 2: mapping values are not allowed in this context)"},
		{"---\n\tid: x\n---\n", "(line 2: found character that cannot start any token)"},
		// Reader errors carry no line wherever they are: the bad byte's line.
		{"---\nid: x\nkind: k\nkeywords: [\xff]\n---\n", "(line 4: invalid leading UTF-8 octet)"},
		{"---\nid: x\nkind: k\ndate: d\ntitle: a\x00b\n---\n", "(line 5: control characters are not allowed)"},
	} {
		got := messages(LintRecord("plans/p.md", []byte(tc.content), nil))
		if len(got) == 0 || !strings.Contains(got[0], "frontmatter is not valid YAML "+tc.want+"; checked line by line") {
			t.Errorf("%q: got %q, want the YAML finding %s", tc.content, got, tc.want)
		}
	}
	// An alias that cannot be found in the block: the line is left out.
	fm := &frontmatter.Frontmatter{Present: true, Block: []byte("id: x\n"), YAMLErr: &frontmatter.YAMLError{Msg: "unknown anchor 'zz' referenced"}}
	want := "⚠ frontmatter-lint WARNING: plans/p.md: frontmatter is not valid YAML (unknown anchor 'zz' referenced); checked line by line"
	if got := str(yamlFinding("plans/p.md", fm)); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestUnreadableFinding: an unreadable file or store directory is named
// once, relative to the root, with the reason only (no absolute path).
func TestUnreadableFinding(t *testing.T) {
	for _, tc := range []struct {
		file string
		err  error
		want string
	}{
		{"references/decisions/x.md", &fs.PathError{Op: "open", Path: "/abs/root/references/decisions/x.md", Err: fs.ErrPermission},
			"❌ frontmatter-lint: references/decisions/x.md: cannot be read: permission denied"},
		{"", &fs.PathError{Op: "open", Path: "plans/locked", Err: fs.ErrPermission},
			"❌ frontmatter-lint: plans/locked: cannot be read: permission denied"},
		{"plans/p.md", errors.New("short read"), "❌ frontmatter-lint: plans/p.md: cannot be read: short read"},
	} {
		f := unreadable(tc.file, tc.err)
		if got := str(f); got != tc.want || f.Rule != RuleUnreadable || f.Severity != SeverityError {
			t.Errorf("got %q (%s), want %q", got, f.Rule, tc.want)
		}
	}
}

// TestLintCorpusUnreadableDir runs where permissions bind (not as root).
func TestLintCorpusUnreadableDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs POSIX permissions")
	}
	if proctest.RunUnprivileged(t) {
		return // ran as a non-root user in a child process
	}
	root := mkTree(t, map[string]string{"plans/a.md": good, "plans/locked/b.md": good})
	os.Chmod(filepath.Join(root, "plans/locked"), 0)
	t.Cleanup(func() { os.Chmod(filepath.Join(root, "plans/locked"), 0o755) })
	r, err := LintCorpus(root)
	if err != nil {
		t.Fatal(err)
	}
	got := messages(r.Findings)
	if want := []string{"❌ frontmatter-lint: plans/locked: cannot be read: permission denied"}; !slices.Equal(got, want) || !r.Failed() {
		t.Errorf("got %q, want %q and a failed lint", got, want)
	}
}

// TestLineViewReadsFirstLine: in the line view (invalid YAML) every value is
// value(block, key), the FIRST "key:" line, as upstream read it.
func TestLineViewReadsFirstLine(t *testing.T) {
	content := "---\ntitle: a: b\nid: dec.first\nproject: good/repo\nkind: k\ndate: d\nkeywords: [k]\nlinks: [dec.first]\nstatus: s\nproject: BAD\nid: dec.second\n---\n"
	ids := &IDMap{}
	ids.add("dec.first", "plans/p.md")
	got := messages(LintRecord("plans/p.md", []byte(content), ids))
	want := []string{"⚠ frontmatter-lint WARNING: plans/p.md: frontmatter is not valid YAML (line 2: mapping values are not allowed in this context); checked line by line"}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if id := recordID(parseLint([]byte(content))); id != "dec.first" {
		t.Errorf("recordID = %q, want dec.first", id)
	}
}

// LintContent stands in for the file's copy on disk: re-linting a record
// with its own id is no duplicate, a second file with that id is one, and
// nothing is written.
func TestLintContentReplacesTheCopyOnDisk(t *testing.T) {
	rec := "---\nid: dec.a\nkind: decision\ndate: 2026-08-10\nkeywords: [k]\nlinks: {}\nstatus: active\n---\n"
	root := mkTree(t, map[string]string{"references/decisions/a.md": rec})
	r, err := LintContent(root, "references/decisions/a.md", []byte(rec))
	if err != nil || r.Failed() || r.Linted != 1 || len(r.Findings) != 0 {
		t.Fatalf("own copy: %+v %v", r, err)
	}
	r, err = LintContent(root, "references/decisions/b.md", []byte(rec))
	if err != nil || len(r.Duplicates) != 1 || r.Duplicates[0].ID != "dec.a" || !r.Failed() {
		t.Fatalf("second copy: %+v %v", r, err)
	}
	if _, err := os.Stat(filepath.Join(root, "references/decisions/b.md")); !os.IsNotExist(err) {
		t.Errorf("LintContent wrote the file: %v", err)
	}
	// The content renames the id: the old id is gone from the map.
	renamed := strings.Replace(strings.Replace(rec, "dec.a", "dec.new", 1), "links: {}", "links: [dec.a]", 1)
	r, err = LintContent(root, "references/decisions/a.md", []byte(renamed))
	if err != nil || len(r.Findings) != 1 || r.Findings[0].Rule != RuleLink {
		t.Fatalf("renamed id: %+v %v", r, err)
	}
	r, err = LintContent(root, "notes/x.md", []byte(rec))
	if err != nil || r.Linted != 0 || len(r.Findings) != 1 || r.Findings[0].Rule != RuleNotARecord {
		t.Errorf("not a record: %+v %v", r, err)
	}
	if _, err := LintContent(filepath.Join(root, "nope"), "references/decisions/a.md", []byte(rec)); !errors.Is(err, ErrRootNotDir) {
		t.Errorf("missing root: %v", err)
	}
}
