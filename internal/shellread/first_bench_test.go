package shellread

import (
	"sync"
	"testing"
)

// BenchmarkFirstCall is what one gate process pays for its one verdict:
// the tables made, then a typical command judged.
func BenchmarkFirstCall(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		loadOnce = sync.Once{}
		specCache.Lock()
		specCache.m = nil
		specCache.Unlock()
		ReadOnly("git log --oneline -20 | grep -v x | sort | head")
	}
}
