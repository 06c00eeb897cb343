package searchbench

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"unicode"

	"github.com/procedures-go/procedures/internal/corpus"
)

// A Goal is one labelled task: the document that governs it and the words.
type Goal struct {
	Target string // the document's path below content/en
	Text   string
}

// ReadGoals reads a goals file: "target<TAB>goal" lines, "#" comments.
func ReadGoals(name string) ([]Goal, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var out []Goal
	for n, line := range strings.Split(string(b), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		target, text, ok := strings.Cut(line, "\t")
		if !ok || target == "" || strings.TrimSpace(text) == "" {
			return nil, fmt.Errorf("%s:%d: want target<TAB>goal", name, n+1)
		}
		out = append(out, Goal{Target: target, Text: text})
	}
	return out, nil
}

// A System ranks records for a goal: record paths, best first.
type System struct {
	Name string
	Rank func(goal string) ([]string, error)
}

// Scores are one system's figures over a goal set, in percent (MRR@10 as
// a fraction).
type Scores struct {
	R1, R5, R10, MRR, Empty float64
}

// Evaluate runs every goal through s; target maps a goal's document to
// its record path.
func Evaluate(s System, goals []Goal, target map[string]string) (Scores, []string, error) {
	var sc Scores
	var misses []string
	for _, g := range goals {
		ranked, err := s.Rank(g.Text)
		if err != nil {
			return sc, nil, fmt.Errorf("%s: %q: %w", s.Name, g.Text, err)
		}
		if len(ranked) == 0 {
			sc.Empty++
		}
		pos := -1
		for i, p := range ranked {
			if p == target[g.Target] {
				pos = i
				break
			}
		}
		switch {
		case pos < 0 || pos >= 10:
			misses = append(misses, fmt.Sprintf("%s\t%d\t%s", g.Target, pos+1, g.Text))
		default:
			sc.MRR += 1 / float64(pos+1)
			sc.R10++
			if pos < 5 {
				sc.R5++
			}
			if pos == 0 {
				sc.R1++
			}
		}
	}
	n := float64(len(goals))
	sc.R1, sc.R5, sc.R10, sc.Empty = 100*sc.R1/n, 100*sc.R5/n, 100*sc.R10/n, 100*sc.Empty/n
	sc.MRR /= n
	return sc, misses, nil
}

// SearchSystem is query-records --search over c (top 10).
func SearchSystem(c *corpus.Corpus) System {
	return System{Name: "--search", Rank: func(goal string) ([]string, error) {
		rs, err := c.Search(corpus.SearchQuery{Text: goal, Filter: corpus.Query{Limit: 10}})
		return paths(rs), err
	}}
}

// KeywordSystem is query-records --keyword over c with the goal's words,
// as a scout passes them (default relative floor).
func KeywordSystem(c *corpus.Corpus) System {
	return System{Name: "--keyword", Rank: func(goal string) ([]string, error) {
		q := corpus.NewQuery()
		q.Keyword = goal
		rs, err := c.Query(q)
		if _, ok := err.(*corpus.NoTokenError); ok {
			return nil, nil
		}
		return paths(rs), err
	}}
}

func paths(rs []corpus.Record) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Path
	}
	return out
}

// FTS5 ranks every goal at once with SQLite's FTS5 BM25 over title,
// keywords and body (the goal's words OR-ed, tokenizer as given:
// "unicode61" is FTS5's default, "porter unicode61" stems), by running
// the sqlite3 command. It returns the top 10 of each goal, in goal order.
func FTS5(sqlite3 string, docs []Doc, goals []Goal, tokenizer string) ([][]string, error) {
	var sql bytes.Buffer
	fmt.Fprintf(&sql, "CREATE VIRTUAL TABLE d USING fts5(path UNINDEXED, title, keywords, body, tokenize=%s);\n", sqlQuote(tokenizer))
	sql.WriteString("BEGIN;\n")
	for _, d := range docs {
		fmt.Fprintf(&sql, "INSERT INTO d VALUES(%s,%s,%s,%s);\n", sqlQuote(d.Record), sqlQuote(d.Title),
			sqlQuote(strings.Join(d.Keywords, " ")), sqlQuote(d.Body))
	}
	sql.WriteString("COMMIT;\n")
	for i, g := range goals {
		var terms []string
		for _, w := range strings.FieldsFunc(strings.ToLower(g.Text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			terms = append(terms, `"`+w+`"`)
		}
		fmt.Fprintf(&sql, "SELECT 'G%d'; SELECT path FROM d WHERE d MATCH %s ORDER BY bm25(d) LIMIT 10;\n", i, sqlQuote(strings.Join(terms, " OR ")))
	}
	cmd := exec.Command(sqlite3, ":memory:")
	cmd.Stdin = &sql
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("sqlite3: %v: %s", err, stderr.String())
	}
	res := make([][]string, len(goals))
	cur := -1
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		var g int
		if _, err := fmt.Sscanf(line, "G%d", &g); err == nil && !strings.Contains(line, "/") {
			cur = g
			continue
		}
		if cur >= 0 {
			res[cur] = append(res[cur], line)
		}
	}
	return res, nil
}

func sqlQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
