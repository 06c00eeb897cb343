package corpus

import "testing"

// BenchmarkSearch is a cold --search (no index): every record read up to
// its body cap, analysed and ranked. Compare with BenchmarkKeyword.
func BenchmarkSearch(b *testing.B) {
	text := "how do I " + benchWords[3] + " the " + benchWords[40] + " " + benchWords[700]
	benchEach(b, func(b *testing.B, root string) {
		stores, _ := allStores("")
		for b.Loop() {
			c, err := Open(root, stores)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := c.Search(SearchQuery{Text: text, Filter: Query{Limit: 20}}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkReach is lint-frontmatter --reach: every record's title ranked
// against all the others (2,000 and 20,000 records).
func BenchmarkReach(b *testing.B) {
	benchEach(b, func(b *testing.B, root string) {
		stores, _ := allStores("")
		for b.Loop() {
			c, err := Open(root, stores)
			if err != nil {
				b.Fatal(err)
			}
			if _, _, err := c.Reach(nil, 5); err != nil {
				b.Fatal(err)
			}
		}
	})
}
