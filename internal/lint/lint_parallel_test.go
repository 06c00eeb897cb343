package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"github.com/procedures-go/procedures/internal/corpus"
)

// The id pass reads on every core; the result is the one a single worker
// gives: the same findings, duplicates and id map, in the same order.
func TestLintParallelIDPass(t *testing.T) {
	root := t.TempDir()
	for i := range 500 {
		dir := filepath.Join(root, corpus.Stores()[i%len(corpus.Stores())])
		os.MkdirAll(dir, 0o755)
		body := fmt.Sprintf("---\nid: rec-%d\nkind: decision\ndate: 2026-01-01\nkeywords: [a]\nlinks: [rec-%d, missing-%d]\nstatus: active\n---\n# r\n", i%450, (i*7)%500, i%5)
		if i%97 == 0 {
			body = "---\nid: broken\n" // never closed
		}
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("r%03d.md", i)), []byte(body), 0o644)
	}
	lint := func(procs int) *LintResult {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		r, err := LintCorpus(root)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	one, two := lint(1), lint(4)
	if len(one.Duplicates) == 0 || len(one.Findings) == 0 {
		t.Fatalf("the corpus has no duplicates or findings: %d, %d", len(one.Duplicates), len(one.Findings))
	}
	if !reflect.DeepEqual(one, two) {
		t.Errorf("one worker and four disagree:\n%v\n%v", one.Duplicates, two.Duplicates)
	}
}
