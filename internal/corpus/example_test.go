package corpus_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/procedures-go/procedures/internal/corpus"
)

// exampleRoot writes a tiny corpus and returns its root.
func exampleRoot() string {
	root, _ := os.MkdirTemp("", "records-example-")
	files := map[string]string{
		"references/decisions/d1.md": "---\nid: dec.d1\nkind: decision\nkeywords: [alpha, beta]\nlinks: {}\n---\n# Decision one\n",
		"references/solutions/s1.md": "---\nid: sol.s1\nkind: solution\nkeywords: [Gamma]\nlinks:\n  decisions: [dec.d1]\n---\n# Solution one\n",
		"plans/p1.md":                "---\nid: plan.p1\nkind: plan\n---\n# Plan without keywords\n",
		"mistakes.jsonl":             `{"description":"forgot the quokkafact check","pattern":"skipped-check"}` + "\n",
	}
	for p, c := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755)
		os.WriteFile(filepath.Join(root, p), []byte(c), 0o644)
	}
	return root
}

func ExampleCorpus_Query() {
	root := exampleRoot()
	defer os.RemoveAll(root)

	c, err := corpus.Open(root, nil) // nil: the default store list
	if err != nil {
		fmt.Println(err)
		return
	}
	q := corpus.NewQuery() // the default relative floor
	q.Keyword = "alpha gamma"
	res, err := c.Query(q)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res {
		fmt.Printf("%s — %s (%s)\n", r.Path, r.Gloss, r.Kind)
	}
	linked, _ := c.Query(corpus.Query{LinksTo: "dec.d1"})
	fmt.Println("links to dec.d1:", linked[0].ID)
	// Output:
	// references/solutions/s1.md — Solution one (solution)
	// references/decisions/d1.md — Decision one (decision)
	// links to dec.d1: sol.s1
}

func ExampleCorpus_Cat() {
	root := exampleRoot()
	defer os.RemoveAll(root)

	c, _ := corpus.Open(root, corpus.Stores())
	_, err := c.Cat([]string{"references/decisions/d1.md", "../../etc/passwd"})
	fmt.Println(errors.Is(err, corpus.ErrUsage))
	fmt.Println(err)

	dumps, _ := c.Cat([]string{"./references/decisions/d1.md"})
	fmt.Printf("%s:\n%s", dumps[0].Path, dumps[0].Content)
	// Output:
	// true
	// not records of the scanned stores: "../../etc/passwd"
	// references/decisions/d1.md:
	// ---
	// id: dec.d1
	// kind: decision
	// keywords: [alpha, beta]
	// links: {}
	// ---
	// # Decision one
}

func ExampleRecall() {
	jsonl := `{"description":"forgot the quokkafact check","pattern":"skipped-check"}
{"description":"unrelated","pattern":"other"}
`
	hits, _ := corpus.Recall(strings.NewReader(jsonl), corpus.RecallTerms("Skipped_Check"))
	for _, h := range hits {
		fmt.Println(string(h))
	}
	// Output:
	// {"description":"forgot the quokkafact check","pattern":"skipped-check"}
}

func ExampleParseFrontmatter() {
	f := corpus.ParseFrontmatter([]byte("---\nid: \"dec.x\"\nkeywords:\n  - alpha\n  - beta\nlinks: {decisions: [dec.a]}\n---\n# Title\n"))
	fmt.Println(f.Scalar("id"), f.Leaves("keywords"), f.Leaves("links"), f.YAMLErr == nil)

	bad := corpus.ParseFrontmatter([]byte("---\nid:nospace\nkind: decision\n---\n"))
	fmt.Println(bad.Scalar("id"), bad.Scalar("kind"), bad.YAMLErr.Line)
	// Output:
	// dec.x [alpha beta] [dec.a] true
	// nospace decision 3
}
