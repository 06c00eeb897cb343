package procedures_test

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// docPages are the pages a reader finds: the README, CONTRIBUTING and every
// page under docs/.
func docPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"README.md", "CONTRIBUTING.md"}, pages...)
}

// readPage reads a page by its slash path from the repository root.
func readPage(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.FromSlash(name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fence matches a fenced block's opening or closing line.
var fence = regexp.MustCompile("^\\s*```")

// prose returns the page's lines outside fenced blocks, each with its
// 1-based line number; inline code spans are blanked out, so a link
// written as code is not a link.
func prose(page string) (lines []string, numbers []int) {
	in := false
	span := regexp.MustCompile("`[^`]*`")
	for i, l := range strings.Split(page, "\n") {
		if fence.MatchString(l) {
			in = !in
			continue
		}
		if !in {
			lines = append(lines, span.ReplaceAllString(l, "``"))
			numbers = append(numbers, i+1)
		}
	}
	return lines, numbers
}

// anchors returns the fragment names a page offers: a slug for every
// heading, as GitHub makes them (lower case; letters, digits, spaces,
// hyphens and underscores kept; spaces become hyphens; a repeated slug
// gains -1, -2, …), and every explicit <a id="…"> or <a name="…">.
func anchors(page string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	explicit := regexp.MustCompile(`<a (?:id|name)="([^"]+)"`)
	in := false
	for _, l := range strings.Split(page, "\n") {
		if fence.MatchString(l) {
			in = !in
			continue
		}
		if in {
			continue
		}
		for _, m := range explicit.FindAllStringSubmatch(l, -1) {
			out[m[1]] = true
		}
		title, ok := strings.CutPrefix(strings.TrimLeft(l, "#"), " ")
		if !ok || !strings.HasPrefix(l, "#") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(title)) {
			switch {
			case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteByte('-')
			}
		}
		slug := b.String()
		if n := seen[slug]; n > 0 {
			out[slug+"-"+strconv.Itoa(n)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	return out
}

// linkTarget matches a Markdown link or image target: [text](target).
var linkTarget = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// Every relative link in README.md, CONTRIBUTING.md and docs/*.md names a
// file or directory of the repository, and every #fragment (on its own,
// or after a .md page) names a heading or an explicit anchor of that page.
func TestDocLinksResolve(t *testing.T) {
	pages := docPages(t)
	checked := 0
	for _, name := range pages {
		lines, numbers := prose(readPage(t, name))
		for i, l := range lines {
			for _, m := range linkTarget.FindAllStringSubmatch(l, -1) {
				target := m[1]
				u, err := url.Parse(target)
				if err != nil {
					t.Errorf("%s:%d: link %q does not parse: %v", name, numbers[i], target, err)
					continue
				}
				if u.Scheme != "" || strings.HasPrefix(target, "//") {
					continue // the web: not checked offline
				}
				checked++
				dest := name
				if u.Path != "" {
					dest = path.Join(path.Dir(name), u.Path)
					if _, err := os.Stat(filepath.FromSlash(dest)); err != nil {
						t.Errorf("%s:%d: link %q: %s does not exist", name, numbers[i], target, dest)
						continue
					}
				}
				if u.Fragment == "" {
					continue
				}
				if !strings.HasSuffix(dest, ".md") {
					t.Errorf("%s:%d: link %q: a fragment on a page that is not Markdown", name, numbers[i], target)
					continue
				}
				if !anchors(readPage(t, dest))[u.Fragment] {
					t.Errorf("%s:%d: link %q: %s has no heading or anchor %q", name, numbers[i], target, dest, u.Fragment)
				}
			}
		}
	}
	if checked < 20 {
		t.Fatalf("checked only %d links: is the link pattern still right?", checked)
	}
}

// The link checker itself: a page whose links are broken in each way
// fails, and one whose links resolve passes.
func TestAnchorsAreGitHubSlugs(t *testing.T) {
	page := "# Try it on `testdata/kb`\n## When something seems off: `procedures doctor`\n" +
		"## Limits\n## Limits\n<a id=\"cat-dashdash\"></a>\n```\n# not a heading\n```\n"
	got := anchors(page)
	for _, want := range []string{"try-it-on-testdatakb", "when-something-seems-off-procedures-doctor", "limits", "limits-1", "cat-dashdash"} {
		if !got[want] {
			t.Errorf("anchors lack %q: %v", want, got)
		}
	}
	if got["not-a-heading"] {
		t.Errorf("a line in a fenced block became an anchor: %v", got)
	}
}

// The README's Go quick start is the program Example_goAPI runs: the body
// of its main equals the example's body, so it compiles and prints the
// output the example checks.
func TestReadmeGoSnippetIsTheExample(t *testing.T) {
	snippet, err := docSnippet(readPage(t, "README.md"), "go-api")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	readme, err := parser.ParseFile(fset, "README.md", snippet, 0)
	if err != nil {
		t.Fatalf("the README's Go snippet does not parse: %v", err)
	}
	example, err := parser.ParseFile(fset, "example_readme_test.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	body := func(f *ast.File, name string) string {
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.Name == name {
				var b bytes.Buffer
				if err := printer.Fprint(&b, fset, fn.Body); err != nil {
					t.Fatal(err)
				}
				var lines []string
				for _, l := range strings.Split(b.String(), "\n") {
					if strings.TrimSpace(l) != "" { // the example's Output comment leaves one
						lines = append(lines, l)
					}
				}
				return strings.Join(lines, "\n")
			}
		}
		t.Fatalf("no func %s", name)
		return ""
	}
	if got, want := body(readme, "main"), body(example, "Example_goAPI"); got != want {
		t.Errorf("the README's main is not Example_goAPI's body:\n%s\nwant\n%s", got, want)
	}
	var imports []string
	for _, s := range readme.Imports {
		imports = append(imports, s.Path.Value)
	}
	for _, s := range example.Imports {
		if !slices.Contains(imports, s.Path.Value) {
			t.Errorf("the README's program does not import %s", s.Path.Value)
		}
	}
}

// TestDifferencesNameScenarios: docs/differences.md is the one
// traceability table, so every scenario it names (a backquoted
// `<area>_<behaviour>`, or `…_<behaviour>` after one of the same area) is a
// file under testdata/script. An area is the first word of an existing
// scenario's name.
func TestDifferencesNameScenarios(t *testing.T) {
	section := readPage(t, "docs/differences.md")
	scripts, err := filepath.Glob(filepath.Join("testdata", "script", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	areas := map[string]bool{}
	for _, s := range scripts {
		area, _, _ := strings.Cut(filepath.Base(s), "_")
		areas[area] = true
	}
	name := regexp.MustCompile(`^[a-z][a-z-]*_[a-z0-9_]+$`)
	var area string
	named := 0
	for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(section, -1) {
		tok := m[1]
		if rest, ok := strings.CutPrefix(tok, "…_"); ok && area != "" {
			tok = area + "_" + rest
		}
		a, _, _ := strings.Cut(tok, "_")
		if !name.MatchString(tok) || !areas[a] {
			continue
		}
		area = a
		named++
		if _, err := os.Stat(filepath.Join("testdata", "script", tok+".txtar")); err != nil {
			t.Errorf("docs/differences.md names scenario %s, which does not exist", tok)
		}
	}
	if named == 0 {
		t.Fatal("docs/differences.md names no scenario")
	}
}

// Every `# pins:` line of a scenario cites rows of docs/differences.md by
// anchor (`# pins: docs/differences.md#<anchor>[, docs/differences.md#<anchor>]…`),
// each anchor exists, and the row it marks names the scenario back.
func TestPinsCiteDifferences(t *testing.T) {
	diffs := readPage(t, "docs/differences.md")
	rows := map[string]string{}
	for _, l := range strings.Split(diffs, "\n") {
		for _, m := range regexp.MustCompile(`<a id="([^"]+)"></a>`).FindAllStringSubmatch(l, -1) {
			rows[m[1]] = l
		}
	}
	scripts, err := filepath.Glob(filepath.Join("testdata", "script", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	pinned := 0
	for _, s := range scripts {
		name := strings.TrimSuffix(filepath.Base(s), ".txtar")
		_, behaviour, _ := strings.Cut(name, "_")
		for _, l := range strings.Split(readPage(t, filepath.ToSlash(s)), "\n") {
			refs, ok := strings.CutPrefix(l, "# pins:")
			if !ok {
				continue
			}
			for _, ref := range strings.Split(refs, ",") {
				anchor, ok := strings.CutPrefix(strings.TrimSpace(ref), "docs/differences.md#")
				if !ok {
					t.Errorf("%s: %q is not docs/differences.md#<anchor>", name, strings.TrimSpace(ref))
					continue
				}
				pinned++
				row, ok := rows[anchor]
				if !ok {
					t.Errorf("%s pins docs/differences.md#%s, which has no such row", name, anchor)
					continue
				}
				if !strings.Contains(row, "`"+name+"`") && !strings.Contains(row, "`…_"+behaviour+"`") {
					t.Errorf("%s pins docs/differences.md#%s, whose row does not name it", name, anchor)
				}
			}
		}
	}
	if pinned == 0 {
		t.Fatal("no scenario has a # pins: line")
	}
}

// specRef matches a citation of a spec that is not in the repository: an
// ID of one to three capitals, a hyphen and digits (with more capitals
// between, as in a three-part ID), or a section sign. notSpec are the
// look-alikes that are names, not citations.
var (
	specRef = regexp.MustCompile(`\b[A-Z]{1,3}(?:-[A-Z]{1,8})*-[0-9]+\b|\x{a7}`)
	notSpec = regexp.MustCompile(`\b(?:UTF-8|UTF-16|SHA-256|CRC-32C?|UTC-[0-9]+)\b|_NT-[0-9]+`)
	// specShort matches, in a comment line, a spec's short labels: its
	// numbered error messages, warnings, examples and rules (a capital E, W
	// or R and a number).
	specShort = regexp.MustCompile(`^\s*(?:#|//).*\b([ERW][0-9]{1,2})\b`)
)

// Scenarios and tests say the behaviour they pin, never a spec ID: no
// .txtar file and no _test.go file cites one, in a comment, a test name or
// a message.
func TestNoSpecIDsInTests(t *testing.T) {
	var files []string
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != "." && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".txtar") || strings.HasSuffix(p, "_test.go")) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Fatalf("found only %d test files", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(b), "\n") {
			for _, m := range specRef.FindAllString(notSpec.ReplaceAllString(l, ""), -1) {
				t.Errorf("%s:%d cites %q: say the behaviour instead", filepath.ToSlash(f), i+1, m)
			}
			if m := specShort.FindStringSubmatch(l); m != nil {
				t.Errorf("%s:%d cites %q: name the message, example or rule instead", filepath.ToSlash(f), i+1, m[1])
			}
		}
	}
}

// testFuncs returns the names of every Test, Fuzz, Benchmark and Example
// function in the repository's test files.
func testFuncs(t *testing.T) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	fn := regexp.MustCompile(`(?m)^func ((?:Test|Fuzz|Benchmark|Example)\w*)\(`)
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return err
		}
		b, err := os.ReadFile(p)
		for _, m := range fn.FindAllStringSubmatch(string(b), -1) {
			out[m[1]] = true
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Every row of docs/differences.md's tables is pinned: its last cell names
// at least one scenario or Go test that exists, and every Go test it names
// exists.
func TestEveryDifferenceIsPinned(t *testing.T) {
	funcs := testFuncs(t)
	scripts, err := filepath.Glob(filepath.Join("testdata", "script", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	var scenarios []string
	for _, s := range scripts {
		scenarios = append(scenarios, strings.TrimSuffix(filepath.Base(s), ".txtar"))
	}
	isScenario := func(tok string) bool {
		if rest, ok := strings.CutPrefix(tok, "…_"); ok {
			return slices.ContainsFunc(scenarios, func(s string) bool { return strings.HasSuffix(s, "_"+rest) })
		}
		return slices.Contains(scenarios, tok)
	}
	code := regexp.MustCompile("`([^`]+)`")
	goTest := regexp.MustCompile(`^(?:Test|Fuzz|Benchmark)\w+$`)
	rows := 0
	for i, l := range strings.Split(readPage(t, "docs/differences.md"), "\n") {
		if !strings.HasPrefix(l, "| ") || strings.HasPrefix(l, "| difference ") {
			continue
		}
		rows++
		cells := strings.Split(strings.TrimSuffix(strings.TrimSpace(l), "|"), " | ")
		pinned := false
		for _, m := range code.FindAllStringSubmatch(cells[len(cells)-1], -1) {
			tok, _, _ := strings.Cut(m[1], "/") // a subtest: its test
			switch {
			case isScenario(tok), funcs[tok]:
				pinned = true
			case goTest.MatchString(tok):
				t.Errorf("docs/differences.md:%d names %s, which no test file defines", i+1, tok)
			}
		}
		if !pinned {
			t.Errorf("docs/differences.md:%d: the row names no scenario or test that pins it", i+1)
		}
	}
	if rows < 50 {
		t.Fatalf("found only %d rows in docs/differences.md", rows)
	}
}

// The README stays short, and its first screen leads to the three quick
// starts: trying it on testdata/kb, installing it into Claude Code and
// using it from Go.
func TestReadmeIsShort(t *testing.T) {
	readme := readPage(t, "README.md")
	lines := strings.Split(strings.TrimSuffix(readme, "\n"), "\n")
	if len(lines) > 250 {
		t.Errorf("README.md has %d lines; at most 250 (move the rest under docs/)", len(lines))
	}
	screen := strings.Join(lines[:min(len(lines), 40)], "\n")
	for _, anchor := range []string{"#try-it-on-testdatakb", "#install-into-claude-code", "#use-it-from-go"} {
		if !strings.Contains(screen, "("+anchor+")") {
			t.Errorf("the README's first 40 lines do not link %s", anchor)
		}
	}
	for _, marker := range []string{"<!-- snippet:quickstart -->", "<!-- snippet:install-local -->", "<!-- snippet:go-api -->"} {
		if !strings.Contains(readme, marker) {
			t.Errorf("README.md lacks %s", marker)
		}
	}
}
