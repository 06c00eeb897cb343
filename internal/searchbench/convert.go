package searchbench

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A Set is a documentation set the benchmark converts: which of its pages
// are task documentation, which front-matter fields are its tags, and the
// goals written for it.
type Set struct {
	Name    string    // the records' id prefix: "hugo"
	Corpus  string    // what it is, with its pinned version and licence
	Env     string    // the variable naming a checkout's page directory
	Goals   string    // the goals file, below testdata
	Tags    []Tagging // its tag granularities, each a run of the benchmark
	include func(rel string) bool
}

// A Tagging is one tag granularity: the front-matter field whose values
// become the records' keywords.
type Tagging struct {
	Name  string // "coarse tags (categories)"
	Field string // "categories"
}

// Store is where the converted records are written, below the corpus root.
const Store = "references/procedures"

// Hugo is the Hugo documentation (gohugoio/hugoDocs, content/en).
var Hugo = Set{
	Name:   "hugo",
	Corpus: "Hugo docs",
	Env:    "PROCEDURES_SEARCH_BENCH",
	Goals:  "testdata/hugo-goals.tsv",
	Tags: []Tagging{
		{"coarse tags (categories)", "categories"},
		{"specific tags (keywords)", "keywords"},
	},
	include: func(rel string) bool {
		if !strings.Contains(rel, "/") || strings.HasSuffix(rel, "/_index.md") {
			return false
		}
		// release notes, the showcase, and the site's own pages
		for _, s := range []string{"news/", "showcase/", "myshowcase/", "readfiles/", "maintenance/", "documentation.md"} {
			if strings.HasPrefix(rel, s) {
				return false
			}
		}
		return true
	},
}

// CppDocs is the Microsoft C++ documentation (MicrosoftDocs/cpp-docs,
// docs), its build, tools and code-quality sections.
var CppDocs = Set{
	Name:   "cpp",
	Corpus: "Microsoft C++ docs",
	Env:    "PROCEDURES_SEARCH_BENCH_CPPDOCS",
	Goals:  "testdata/cppdocs-goals.tsv",
	Tags:   []Tagging{{"specific tags (helpviewer_keywords)", "helpviewer_keywords"}},
	include: func(rel string) bool {
		section, _, _ := strings.Cut(rel, "/")
		switch section {
		case "build", "build-insights", "code-quality", "cross-platform", "ide", "linux", "sanitizers":
			return true
		}
		return false
	},
}

// A Doc is one converted document.
type Doc struct {
	Source   string // its path below the set's page directory
	Record   string // its record's path below the corpus root
	Title    string
	Keywords []string
	Body     string // the record's body: the title line, the description, the text
}

// Convert reads the documentation below src (the set's page directory in a
// checkout) and writes one record per document below root: kind from the
// document's section (its first directory), keywords only from its own
// tags (the tagging's field), the gloss from its title, the body from its
// description and text.
func (s Set) Convert(src, root string, tags Tagging) ([]Doc, error) {
	var docs []Doc
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, src+string(filepath.Separator)))
		if !s.include(rel) {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		doc, err := convertOne(rel, b, tags.Field)
		if err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		docs = append(docs, doc)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(docs, func(i, j int) bool { return docs[i].Source < docs[j].Source })
	seen := map[string]string{}
	for _, d := range docs {
		if other := seen[d.Record]; other != "" {
			return nil, fmt.Errorf("%s and %s both convert to %s", other, d.Source, d.Record)
		}
		seen[d.Record] = d.Source
		if err := writeRecord(root, s.Name, d); err != nil {
			return nil, err
		}
	}
	return docs, nil
}

func convertOne(rel string, b []byte, tagField string) (Doc, error) {
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	fm := map[string]any{}
	body := b
	if rest, ok := bytes.CutPrefix(b, []byte("---\n")); ok {
		end := bytes.Index(rest, []byte("\n---"))
		if end < 0 {
			return Doc{}, fmt.Errorf("unterminated frontmatter")
		}
		if err := yaml.Unmarshal(rest[:end], &fm); err != nil {
			return Doc{}, err
		}
		body = rest[end+4:]
	}
	section, name, _ := strings.Cut(rel, "/")
	name = strings.TrimSuffix(strings.TrimSuffix(name, ".md"), "/index")
	name = strings.ReplaceAll(name, "/", "-")
	title := strings.Join(strings.Fields(text(fm["title"])), " ")
	if title == "" {
		title = strings.ReplaceAll(name, "-", " ")
	}
	d := Doc{Source: rel, Record: Store + "/" + section + "/" + name + ".md", Title: title}
	d.Keywords = list(fm[tagField])
	d.Body = "# " + title + "\n\n" + strings.TrimSpace(text(fm["description"])) + "\n" + string(body)
	return d, nil
}

// text is a scalar front-matter value as text.
func text(v any) string {
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// list is a tag field's values: a YAML list, or one comma-separated string.
func list(v any) []string {
	var out []string
	add := func(s string) {
		if s = strings.Join(strings.Fields(s), " "); s != "" {
			out = append(out, s)
		}
	}
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			add(text(e))
		}
	case string:
		for _, e := range strings.Split(v, ",") {
			add(e)
		}
	}
	return out
}

func writeRecord(root, set string, d Doc) error {
	section, _, _ := strings.Cut(d.Source, "/")
	var b strings.Builder
	fmt.Fprintf(&b, "---\nid: %s.%s\nkind: %s\n", set, strings.TrimSuffix(strings.TrimPrefix(d.Record, Store+"/"), ".md"), section)
	if len(d.Keywords) > 0 {
		q := make([]string, len(d.Keywords))
		for i, k := range d.Keywords {
			q[i] = fmt.Sprintf("%q", k)
		}
		fmt.Fprintf(&b, "keywords: [%s]\n", strings.Join(q, ", "))
	}
	b.WriteString("---\n")
	b.WriteString(d.Body)
	p := filepath.Join(root, filepath.FromSlash(d.Record))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(b.String()), 0o644)
}
