package records_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/procedures-go/procedures/records"
)

// exampleRoot writes a tiny corpus and returns its root.
func exampleRoot() string {
	root, _ := os.MkdirTemp("", "records-example-")
	files := map[string]string{
		"references/decisions/d1.md": "---\nid: dec.d1\nkind: decision\nkeywords: [alpha, beta]\nlinks: {}\n---\n# Decision one\n",
		"references/solutions/s1.md": "---\nid: sol.s1\nkind: solution\nkeywords: [Gamma]\nlinks:\n  decisions: [dec.d1]\n---\n# Solution one\n",
		"plans/p1.md":                "---\nid: plan.p1\nkind: plan\n---\n# Plan without keywords\n",
		"team-kb/t1.md":              "---\nid: team.t1\nkind: decision\n---\n# A team record\n",
		"mistakes.jsonl":             `{"description":"forgot the quokkafact check","pattern":"skipped-check"}` + "\n",
	}
	for p, c := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755)
		os.WriteFile(filepath.Join(root, p), []byte(c), 0o644)
	}
	return root
}

func ExampleOpen() {
	root := exampleRoot()
	defer os.RemoveAll(root)

	c, err := records.Open(root, records.Options{}) // the default stores
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Paths())

	_, err = records.Open(filepath.Join(root, "nowhere"), records.Options{})
	var noRoot *records.NoRootError
	fmt.Println(errors.As(err, &noRoot), errors.Is(err, fs.ErrNotExist))
	// Output:
	// [plans/p1.md references/decisions/d1.md references/solutions/s1.md]
	// true true
}

func ExampleOptions() {
	root := exampleRoot()
	defer os.RemoveAll(root)

	// Another store next to the default ones.
	c, _ := records.Open(root, records.Options{Stores: append(records.DefaultStores(), "team-kb")})
	fmt.Println(c.Paths())
	// Output:
	// [plans/p1.md references/decisions/d1.md references/solutions/s1.md team-kb/t1.md]
}

func ExampleDefaultStores() {
	s := records.DefaultStores()
	fmt.Println(len(s), s[0], s[len(s)-1])
	// Output:
	// 11 references/failure-modes titw
}

func ExampleCorpus_Query() {
	root := exampleRoot()
	defer os.RemoveAll(root)

	c, _ := records.Open(root, records.Options{})
	// The zero RelRatio is the default relative floor.
	res, err := c.Query(records.Query{Keyword: "alpha gamma"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res {
		fmt.Printf("%s — %s (%s)\n", r.Path, r.Gloss, r.Kind)
	}
	linked, _ := c.Query(records.Query{LinksTo: "dec.d1"})
	fmt.Println("links to dec.d1:", linked[0].ID)

	_, err = c.Query(records.Query{Keyword: "a ?"})
	var noToken *records.NoTokenError
	fmt.Println(errors.As(err, &noToken), err)
	// Output:
	// references/solutions/s1.md — Solution one (solution)
	// references/decisions/d1.md — Decision one (decision)
	// links to dec.d1: sol.s1
	// true keyword "a ?" has no token of 2+ characters
}

func ExampleQuery() {
	root := exampleRoot()
	defer os.RemoveAll(root)
	c, _ := records.Open(root, records.Options{})

	all, _ := c.Query(records.Query{}) // the zero Query matches every record
	fmt.Println(len(all))
	plans, _ := c.Query(records.Query{Kind: "plan"})
	fmt.Println(plans[0].ID)
	// A negative RelRatio keeps every keyword match, however low it ranks.
	every, _ := c.Query(records.Query{Keyword: "alpha zzz", RelRatio: -1, Limit: 5})
	fmt.Println(len(every), every[0].ID, every[0].Score > 0)
	// Output:
	// 3
	// plan.p1
	// 1 dec.d1 true
}

func ExampleCorpus_Records() {
	root := exampleRoot()
	defer os.RemoveAll(root)
	c, _ := records.Open(root, records.Options{})

	for r, err := range c.Records() {
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s %s %q %v\n", r.ID, r.Kind, r.Gloss, r.Keywords)
	}
	// Output:
	// plan.p1 plan "Plan without keywords" []
	// dec.d1 decision "Decision one" [alpha beta]
	// sol.s1 solution "Solution one" [Gamma]
}

func ExampleCorpus_Member() {
	root := exampleRoot()
	defer os.RemoveAll(root)
	c, _ := records.Open(root, records.Options{})

	fmt.Println(c.Member("./plans/p1.md"))
	fmt.Println(c.Member(root + "/references/decisions/d1.md"))
	fmt.Println(c.Member("plans/../plans/p1.md"))
	// Output:
	// plans/p1.md true
	// references/decisions/d1.md true
	//  false
}

func ExampleCorpus_Cat() {
	root := exampleRoot()
	defer os.RemoveAll(root)
	c, _ := records.Open(root, records.Options{})

	_, err := c.Cat([]string{"references/decisions/d1.md", "../../etc/passwd"})
	var notMember *records.CatError
	fmt.Println(errors.As(err, &notMember), notMember.Refs)

	dumps, _ := c.Cat([]string{"./references/decisions/d1.md", "references/decisions/d1.md"})
	fmt.Printf("%d %s:\n%s", len(dumps), dumps[0].Path, dumps[0].Content)
	// Output:
	// true [../../etc/passwd]
	// 1 references/decisions/d1.md:
	// ---
	// id: dec.d1
	// kind: decision
	// keywords: [alpha, beta]
	// links: {}
	// ---
	// # Decision one
}

func ExampleCorpus_ReadFile() {
	root := exampleRoot()
	defer os.RemoveAll(root)
	c, _ := records.Open(root, records.Options{})

	b, _ := c.ReadFile("plans/p1.md")
	fmt.Print(string(b))
	fm := records.ParseFrontmatter(b) // a record's frontmatter, read whole
	fmt.Println(fm.Scalar("kind"), fm.Has("keywords"))
	_, err := c.ReadFile("mistakes.jsonl") // not a record of the corpus
	fmt.Println(errors.Is(err, fs.ErrNotExist))
	// Output:
	// ---
	// id: plan.p1
	// kind: plan
	// ---
	// # Plan without keywords
	// plan false
	// true
}

func ExampleCorpus_Skipped() {
	root := exampleRoot()
	defer os.RemoveAll(root)
	c, _ := records.Open(root, records.Options{})
	fmt.Println(len(c.Skipped())) // every directory could be read

	var zero records.Corpus // the zero Corpus is empty
	fmt.Println(zero.Paths(), len(zero.Skipped()))
	// Output:
	// 0
	// [] 0
}

func ExampleRecallTerms() {
	fmt.Println(records.RecallTerms("Skipped_Check a b2 skipped_check"))
	// Output:
	// [skipped_check b2]
}

func ExampleRecall() {
	jsonl := `{"description":"forgot the quokkafact check","pattern":"skipped-check"}
{"description":"unrelated","pattern":"other"}
`
	hits, _ := records.Recall(strings.NewReader(jsonl), records.RecallTerms("Skipped_Check"))
	for _, h := range hits {
		fmt.Println(string(h))
	}

	_, err := records.Recall(strings.NewReader(jsonl), []string{strings.Repeat("w-", 65)})
	var tooMany *records.RecallPartsError
	fmt.Println(errors.As(err, &tooMany), tooMany.Words)
	// Output:
	// {"description":"forgot the quokkafact check","pattern":"skipped-check"}
	// true 65
}

func ExampleRecall_file() {
	root := exampleRoot()
	defer os.RemoveAll(root)

	f, err := os.Open(filepath.Join(root, "mistakes.jsonl"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	hits, _ := records.Recall(f, []string{"quokkafact"})
	fmt.Println(len(hits))
	// Output:
	// 1
}

func ExampleParseFrontmatter() {
	f := records.ParseFrontmatter([]byte("---\nid: \"dec.x\"\nkeywords:\n  - alpha\n  - beta\nlinks: {decisions: [dec.a]}\n---\n# Title\n"))
	fmt.Println(f.Present, f.Terminated, f.YAMLErr == nil)
	fmt.Printf("%q\n", f.Body)
	// Output:
	// true true true
	// "# Title\n"
}

func ExampleFrontmatter_Scalar() {
	f := records.ParseFrontmatter([]byte("---\nid: \"dec.x\" # quoted\nstatus: ~\n---\n"))
	fmt.Printf("%q %q %q\n", f.Scalar("id"), f.Scalar("status"), f.Scalar("missing"))

	// Not YAML: read line by line, as the upstream tools did.
	bad := records.ParseFrontmatter([]byte("---\nid:nospace\nkind: decision\n---\n"))
	fmt.Println(bad.Scalar("id"), bad.Scalar("kind"))
	var yerr *records.YAMLError = bad.YAMLErr
	fmt.Println(yerr.Line)
	// Output:
	// "dec.x" "" ""
	// nospace decision
	// 3
}

func ExampleFrontmatter_Leaves() {
	f := records.ParseFrontmatter([]byte("---\nkeywords: [alpha, beta]\nlinks: {decisions: [dec.a], solutions: [sol.b]}\n---\n"))
	fmt.Println(f.Leaves("keywords"), f.Leaves("links"))
	// Output:
	// [alpha beta] [dec.a sol.b]
}

func ExampleFrontmatter_Has() {
	f := records.ParseFrontmatter([]byte("---\nid: x\nlinks: {}\n---\n"))
	fmt.Println(f.Has("id"), f.Has("links"), f.Has("kind"))
	var zero records.Frontmatter // the zero Frontmatter is an absent one
	fmt.Println(zero.Present, zero.Has("id"))
	// Output:
	// true true false
	// false false
}

func ExampleTooLargeError() {
	err := error(&records.TooLargeError{Path: "plans/huge.md", Size: 17 << 20})
	fmt.Println(err)
	// Output:
	// plans/huge.md: record is 17825792 bytes, above the 16 MiB (16777216-byte) dump limit
}

func ExampleCorpus_Search() {
	root := exampleRoot()
	defer os.RemoveAll(root)
	os.WriteFile(filepath.Join(root, "references/solutions/s2.md"),
		[]byte("---\nid: sol.s2\nkind: solution\n---\n# Merging pull requests\n\nSquash, then delete the branch.\n"), 0o644)

	c, _ := records.Open(root, records.Options{})
	// The goal's words, as an agent states it: "PR" is expanded, "merge"
	// and "Merging" share a stem.
	found, err := c.Search("how do I merge a PR", records.Query{Limit: 5})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range found {
		fmt.Println(r.Path, "—", r.Gloss)
	}
	// Output:
	// references/solutions/s2.md — Merging pull requests
}
