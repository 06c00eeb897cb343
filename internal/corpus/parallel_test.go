package corpus

import (
	"iter"
	"sync/atomic"
	"testing"
)

func TestInParallelCoversEachIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 31, 32, 33, 64, 65, 1000, 4097} {
		hits := make([]atomic.Int32, n)
		var calls atomic.Int32
		inParallel(n, func(indexes iter.Seq[int]) {
			calls.Add(1)
			for i := range indexes {
				hits[i].Add(1)
			}
		})
		for i := range hits {
			if h := hits[i].Load(); h != 1 {
				t.Fatalf("n=%d: index %d visited %d times", n, i, h)
			}
		}
		if c := int(calls.Load()); c < 1 || c > 8 || c > n/64+1 {
			t.Errorf("n=%d: %d workers, want 1..min(8, n/64+1)", n, c)
		}
	}
}
