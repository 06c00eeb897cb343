package lint_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/procedures-go/procedures/internal/lint"
)

// exampleRoot writes a tiny corpus and returns its root.
func exampleRoot() string {
	root, _ := os.MkdirTemp("", "lint-example-")
	files := map[string]string{
		"references/decisions/d1.md": "---\nid: dec.d1\nkind: decision\nkeywords: [alpha, beta]\nlinks: {}\n---\n# Decision one\n",
	}
	for p, c := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755)
		os.WriteFile(filepath.Join(root, p), []byte(c), 0o644)
	}
	return root
}

func ExampleLintContent() {
	root := exampleRoot()
	defer os.RemoveAll(root)

	// A draft, linted before it is written: an empty keyword list and a link
	// to an id no record declares.
	draft := "---\nid: dec.x\nkind: decision\ndate: 2026-08-10\nkeywords: []\nlinks: [dec.gone, dec.d1]\nstatus: active\n---\n"
	res, err := lint.LintContent(root, "references/decisions/x.md", []byte(draft))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range res.Findings {
		fmt.Println(f.Rule, f.Message)
	}
	fmt.Println("failed:", res.Failed())
	// Output:
	// keywords-empty references/decisions/x.md: keywords: list is empty (AC21 requires at least one keyword)
	// link-unresolved references/decisions/x.md: links target 'dec.gone' resolves to no record id in the corpus
	// failed: true
}
