package searchbench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/corpus"
)

const goalsFile = "testdata/hugo-goals.tsv"

// TestGoalsAreWellFormed checks the committed goal set: at least 150
// goals, each target named once.
func TestGoalsAreWellFormed(t *testing.T) {
	goals, err := ReadGoals(goalsFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(goals) < 150 {
		t.Errorf("%d goals, want at least 150", len(goals))
	}
	seen := map[string]bool{}
	for _, g := range goals {
		if seen[g.Target] {
			t.Errorf("target %s has two goals", g.Target)
		}
		seen[g.Target] = true
	}
}

// TestHugoBenchmark runs the benchmark when PROCEDURES_SEARCH_BENCH names
// a checkout's content/en (see docs/search.md); with -v it prints the
// table and, with PROCEDURES_SEARCH_BENCH_MISSES=1, every --search miss.
func TestHugoBenchmark(t *testing.T) {
	src := os.Getenv("PROCEDURES_SEARCH_BENCH")
	if src == "" {
		t.Skip("PROCEDURES_SEARCH_BENCH (a hugoDocs checkout's content/en) is not set")
	}
	goals, err := ReadGoals(goalsFile)
	if err != nil {
		t.Fatal(err)
	}
	sqlite3, _ := exec.LookPath("sqlite3")
	var table strings.Builder
	table.WriteString("| tags | system | R@1 | R@5 | R@10 | MRR@10 | empty |\n|---|---|---|---|---|---|---|\n")
	for _, tags := range []Tags{Coarse, Specific} {
		root := t.TempDir()
		docs, err := Convert(src, root, tags)
		if err != nil {
			t.Fatal(err)
		}
		target := map[string]string{}
		for _, d := range docs {
			target[d.Source] = d.Record
		}
		for _, g := range goals {
			if target[g.Target] == "" {
				t.Fatalf("goal target %s is not a converted document", g.Target)
			}
		}
		c, err := corpus.Open(root, []string{Store})
		if err != nil {
			t.Fatal(err)
		}
		systems := []System{SearchSystem(c), KeywordSystem(c)}
		if sqlite3 != "" {
			for _, tok := range []string{"unicode61", "porter unicode61"} {
				res, err := FTS5(sqlite3, docs, goals, tok)
				if err != nil {
					t.Fatal(err)
				}
				byGoal := map[string][]string{}
				for i, g := range goals {
					byGoal[g.Text] = res[i]
				}
				systems = append(systems, System{Name: "FTS5 BM25 (" + tok + ")", Rank: func(goal string) ([]string, error) { return byGoal[goal], nil }})
			}
		}
		for _, s := range systems {
			sc, misses, err := Evaluate(s, goals, target)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&table, "| %s (%d records, %d goals) | %s | %.1f %% | %.1f %% | %.1f %% | %.3f | %.1f %% |\n",
				tags, len(docs), len(goals), s.Name, sc.R1, sc.R5, sc.R10, sc.MRR, sc.Empty)
			if s.Name == "--search" && os.Getenv("PROCEDURES_SEARCH_BENCH_MISSES") != "" {
				t.Logf("%s misses (target, rank, goal):\n%s", tags, strings.Join(misses, "\n"))
			}
		}
	}
	t.Logf("\n%s", table.String())
	if out := os.Getenv("PROCEDURES_SEARCH_BENCH_OUT"); out != "" {
		if err := os.WriteFile(filepath.Clean(out), []byte(table.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
