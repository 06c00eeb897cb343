package shellread

import "testing"

// BenchmarkLoadTables is the cost every gate process pays once: parsing
// all option tables.
func BenchmarkLoadTables(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		rules = map[string]rule{}
		specs = map[string]*table{}
		loadSpecs()
		loadMore()
		loadDocker()
		loadGit()
	}
}
