package corpus

import (
	"iter"
	"runtime"
	"sync"
	"sync/atomic"
)

// inParallel runs work on up to 8 goroutines (no more than GOMAXPROCS, and
// one per 64 items), each goroutine once. Every call gets its own sequence
// of indexes in [0, n); the goroutines claim them from a shared counter in
// chunks of 32, so together they cover each index exactly once. Per-goroutine
// scratch state lives in work, before its loop over the sequence.
func inParallel(n int, work func(indexes iter.Seq[int])) {
	const chunk = 32
	var next atomic.Int64
	indexes := func(yield func(int) bool) {
		for {
			lo := int(next.Add(chunk)) - chunk
			if lo >= n {
				return
			}
			for i := lo; i < min(lo+chunk, n); i++ {
				if !yield(i) {
					return
				}
			}
		}
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), 8, n/64+1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(indexes)
		}()
	}
	wg.Wait()
}

// InParallel is [inParallel] for the packages built on the engine (the
// lint's id pass).
func InParallel(n int, work func(indexes iter.Seq[int])) { inParallel(n, work) }
