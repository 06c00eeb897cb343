package lintfrontmatter

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/corpus"
)

// reachTop is the rank within which a search for a record's own title
// must find it.
const reachTop = 5

// maxReachTerms is how many reaching words a finding names.
const maxReachTerms = 6

// reach is lint-frontmatter --reach: for every record of the stores
// query-records searches, whether query-records --search for its own
// title ranks it within the top 5. Each record that it does not is a line
// on stdout naming its rank and the words of the record that alone would
// rank it there (candidates for its keywords or title), then a summary
// line. Exit 0 when every record is reached, 1 otherwise, 2 on a usage
// error.
func reach(args []string, stdout, stderr io.Writer, s config.Records) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "lint-frontmatter: --reach takes no record paths (it checks every record), got %s\n", strconv.Quote(args[0]))
		return 2
	}
	stores, root := s.Stores, s.Root
	abbrev, err := corpus.ReadAbbreviations(root)
	if err != nil {
		fmt.Fprintf(stderr, "lint-frontmatter: %v\n", err)
		return 2
	}
	c, err := corpus.Open(root, stores)
	if err != nil {
		fmt.Fprintf(stderr, "lint-frontmatter: %v\n", err)
		return 1
	}
	for _, e := range c.Skipped {
		fmt.Fprintf(stderr, "lint-frontmatter: %v\n", e)
	}
	unreached, checked, err := c.Reach(abbrev, reachTop)
	if err != nil {
		fmt.Fprintf(stderr, "lint-frontmatter: %v\n", err)
		return 1
	}
	var b strings.Builder
	for _, u := range unreached {
		b.WriteString("UNREACHABLE " + u.Path + " — " + u.Gloss + ": ")
		switch {
		case u.Gloss == "(record)":
			b.WriteString("no title line")
		case u.Rank == 0:
			b.WriteString("its title does not find it")
		default:
			b.WriteString("its title ranks it " + strconv.Itoa(u.Rank) + ordinal(u.Rank))
		}
		if len(u.Terms) > 0 {
			b.WriteString("; words that reach it: " + strings.Join(u.Terms[:min(len(u.Terms), maxReachTerms)], ", "))
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "reach: %d record(s), %d not in the top %d for their own title\n", checked, len(unreached), reachTop)
	io.WriteString(stdout, b.String())
	if len(unreached) > 0 {
		return 1
	}
	return 0
}

func ordinal(n int) string {
	if n%100/10 == 1 {
		return "th"
	}
	switch n % 10 {
	case 1:
		return "st"
	case 2:
		return "nd"
	case 3:
		return "rd"
	}
	return "th"
}
