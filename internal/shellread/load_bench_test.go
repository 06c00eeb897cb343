package shellread

import (
	"sync"
	"testing"
)

// BenchmarkLoadTables is the cost every gate process pays once: the rules
// made (the option tables are parsed on first use).
func BenchmarkLoadTables(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		loadOnce = sync.Once{}
		loadTables()
	}
}
