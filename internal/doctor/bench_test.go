package doctor

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/gatelog"
)

// BenchmarkSummarize1GB summarises a 1 GB fail-open log generated on the
// fly (no disk): rows of every reason and session, garbage lines and an
// over-long line in every 64 KiB block. It reports the peak heap seen while
// reading (peak-heap-MiB), which must stay under 64 MiB.
func BenchmarkSummarize1GB(b *testing.B) {
	const size = 1 << 30
	var block strings.Builder
	for i := 0; block.Len() < 64<<10; i++ {
		why := everyReason[i%len(everyReason)]
		block.WriteString(foLine(fixedNow.Add(-time.Duration(i)*time.Second), fmt.Sprintf("gate%d", i%7), why, fmt.Sprintf("session-%d", i)))
		if i%50 == 0 {
			block.WriteString("garbage line\n")
		}
	}
	block.WriteString(strings.Repeat("z", gatelog.MaxLine+1) + "\n")
	b.SetBytes(size)
	b.ReportAllocs()
	var peak uint64
	for b.Loop() {
		src := newHeapSampler(block.String(), size)
		s, err := SummarizeFailOpen(src, fixedNow.Add(-7*24*time.Hour))
		if err != nil {
			b.Fatal(err)
		}
		if s.InWindow == 0 || s.Unparseable == 0 || s.Overlong == 0 {
			b.Fatalf("generator broken: %+v", s)
		}
		peak = max(peak, src.peak)
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	if peak >= 64<<20 {
		b.Fatalf("peak heap %d MiB summarising 1 GB, want under 64 MiB", peak>>20)
	}
}
