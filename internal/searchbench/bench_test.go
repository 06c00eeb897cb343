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

var sets = []Set{Hugo, CppDocs}

// floors are --search's R@1 and R@10 (percent) that a ranking change must
// not fall below on each set and tagging: the figures in docs/search.md,
// less about a goal's worth.
var floors = map[string][2]float64{
	"hugo/categories":         {60, 89},
	"hugo/keywords":           {61.5, 90.5},
	"cpp/helpviewer_keywords": {57.5, 91},
}

// TestGoalsAreWellFormed checks each committed goal set: at least 150
// goals, each target named once.
func TestGoalsAreWellFormed(t *testing.T) {
	for _, s := range sets {
		goals, err := ReadGoals(s.Goals)
		if err != nil {
			t.Fatal(err)
		}
		if len(goals) < 150 {
			t.Errorf("%s: %d goals, want at least 150", s.Goals, len(goals))
		}
		seen := map[string]bool{}
		for _, g := range goals {
			if seen[g.Target] {
				t.Errorf("%s: target %s has two goals", s.Goals, g.Target)
			}
			seen[g.Target] = true
		}
	}
}

// TestConvertKeepsOnlyTheDocsOwnTags converts a page of each kind of
// front matter: the keywords are the tagging's field alone, a list or a
// comma-separated string, and the gloss is the title.
func TestConvertKeepsOnlyTheDocsOwnTags(t *testing.T) {
	src, root := t.TempDir(), t.TempDir()
	page := "---\ntitle: \"/Zm (Memory limit)\"\ndescription: Sets a limit.\nhelpviewer_keywords: [\"Zm\", \"memory, PCH\"]\nf1_keywords: [\"VC.Zm\"]\nkeywords: a, b\n---\n# /Zm\n\nText.\n"
	if err := os.MkdirAll(filepath.Join(src, "build", "reference"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "build", "reference", "zm.md"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	docs, err := CppDocs.Convert(src, root, CppDocs.Tags[0])
	if err != nil || len(docs) != 1 {
		t.Fatalf("%v, %d docs", err, len(docs))
	}
	d := docs[0]
	if got := strings.Join(d.Keywords, "|"); got != "Zm|memory, PCH" || d.Title != "/Zm (Memory limit)" || d.Record != Store+"/build/reference-zm.md" {
		t.Errorf("keywords %q, title %q, record %q", got, d.Title, d.Record)
	}
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(d.Record)))
	if err != nil {
		t.Fatal(err)
	}
	want := "---\nid: cpp.build/reference-zm\nkind: build\nkeywords: [\"Zm\", \"memory, PCH\"]\n---\n# /Zm (Memory limit)\n\nSets a limit.\n\n# /Zm\n\nText.\n"
	if string(b) != want {
		t.Errorf("record:\n%s\nwant:\n%s", b, want)
	}
	if got := list("a, b ,,c"); strings.Join(got, "|") != "a|b|c" {
		t.Errorf("list of a comma-separated string: %q", got)
	}
}

// TestBenchmark runs the benchmark of each set whose variable names a
// checkout's page directory (see docs/search.md); with -v it prints the
// table and, with PROCEDURES_SEARCH_BENCH_MISSES=1, every --search miss.
func TestBenchmark(t *testing.T) {
	sqlite3, _ := exec.LookPath("sqlite3")
	var table strings.Builder
	table.WriteString("| corpus, tags | system | R@1 | R@5 | R@10 | MRR@10 | empty |\n|---|---|---|---|---|---|---|\n")
	ran := false
	for _, s := range sets {
		src := os.Getenv(s.Env)
		if src == "" {
			t.Logf("%s: %s (a checkout's page directory) is not set", s.Corpus, s.Env)
			continue
		}
		ran = true
		goals, err := ReadGoals(s.Goals)
		if err != nil {
			t.Fatal(err)
		}
		for _, tags := range s.Tags {
			benchOne(t, s, tags, src, goals, sqlite3, &table)
		}
	}
	if !ran {
		t.Skip("no benchmark corpus is set")
	}
	t.Logf("\n%s", table.String())
	if out := os.Getenv("PROCEDURES_SEARCH_BENCH_OUT"); out != "" {
		if err := os.WriteFile(filepath.Clean(out), []byte(table.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func benchOne(t *testing.T, s Set, tags Tagging, src string, goals []Goal, sqlite3 string, table *strings.Builder) {
	root := t.TempDir()
	docs, err := s.Convert(src, root, tags)
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
	if sqlite3 != "" && os.Getenv("PROCEDURES_SEARCH_BENCH_NO_FTS") == "" {
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
	for _, sys := range systems {
		sc, misses, err := Evaluate(sys, goals, target)
		if err != nil {
			t.Fatal(err)
		}
		if f, ok := floors[s.Name+"/"+tags.Field]; ok && sys.Name == "--search" && (sc.R1 < f[0] || sc.R10 < f[1] || sc.Empty > 1) {
			t.Errorf("%s, %s: --search R@1 %.1f %%, R@10 %.1f %%, empty %.1f %%: below the floor R@1 %.1f, R@10 %.1f, empty 1", s.Corpus, tags.Name, sc.R1, sc.R10, sc.Empty, f[0], f[1])
		}
		fmt.Fprintf(table, "| %s, %s (%d records, %d goals) | %s | %.1f %% | %.1f %% | %.1f %% | %.3f | %.1f %% |\n",
			s.Corpus, tags.Name, len(docs), len(goals), sys.Name, sc.R1, sc.R5, sc.R10, sc.MRR, sc.Empty)
		if sys.Name == "--search" && os.Getenv("PROCEDURES_SEARCH_BENCH_MISSES") != "" {
			t.Logf("%s, %s misses (target, rank, goal):\n%s", s.Corpus, tags.Name, strings.Join(misses, "\n"))
		}
	}
}
