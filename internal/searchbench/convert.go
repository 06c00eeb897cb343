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

// Tags says which of a document's own tags become its record's keywords.
type Tags int

// The two tag granularities of the Hugo documentation.
const (
	Coarse   Tags = iota // its categories ("functions", "templates", ...)
	Specific             // its keywords ("strings", "menus", ...)
)

func (t Tags) String() string {
	if t == Coarse {
		return "coarse tags (categories)"
	}
	return "specific tags (keywords)"
}

// Store is where the converted records are written, below the corpus root.
const Store = "references/procedures"

// skipped are the parts of the documentation that are not task
// documentation: release notes, the showcase, and the site's own pages.
var skipped = []string{"news/", "showcase/", "myshowcase/", "readfiles/", "maintenance/", "documentation.md"}

// A Doc is one converted document.
type Doc struct {
	Source   string // its path below content/en
	Record   string // its record's path below the corpus root
	Title    string
	Keywords []string
	Body     string // the record's body: the title line, the description, the text
}

// Convert reads the documentation below src (a checkout's content/en) and
// writes one record per document below root: kind from the document's
// section (its first directory), keywords only from its own tags, the
// gloss from its title, the body from its description and text.
func Convert(src, root string, tags Tags) ([]Doc, error) {
	var docs []Doc
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, src+string(filepath.Separator)))
		if d.Name() == "_index.md" || !strings.Contains(rel, "/") {
			return nil
		}
		for _, s := range skipped {
			if strings.HasPrefix(rel, s) {
				return nil
			}
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		doc, err := convertOne(rel, b, tags)
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
	for _, d := range docs {
		if err := writeRecord(root, d); err != nil {
			return nil, err
		}
	}
	return docs, nil
}

type frontmatter struct {
	Title       string   `yaml:"title"`
	Description string   `yaml:"description"`
	Categories  []string `yaml:"categories"`
	Keywords    []string `yaml:"keywords"`
}

func convertOne(rel string, b []byte, tags Tags) (Doc, error) {
	var fm frontmatter
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
	title := strings.Join(strings.Fields(fm.Title), " ")
	if title == "" {
		title = strings.ReplaceAll(name, "-", " ")
	}
	d := Doc{Source: rel, Record: Store + "/" + section + "/" + name + ".md", Title: title}
	d.Keywords = fm.Categories
	if tags == Specific {
		d.Keywords = fm.Keywords
	}
	d.Body = "# " + title + "\n\n" + strings.TrimSpace(fm.Description) + "\n" + string(body)
	return d, nil
}

func writeRecord(root string, d Doc) error {
	section, _, _ := strings.Cut(d.Source, "/")
	var b strings.Builder
	fmt.Fprintf(&b, "---\nid: hugo.%s\nkind: %s\n", strings.TrimSuffix(strings.TrimPrefix(d.Record, Store+"/"), ".md"), section)
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
