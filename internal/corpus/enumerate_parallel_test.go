package corpus

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// The stores are walked concurrently; the listing (entries, their store,
// duplicates from overlapping stores, errors) is what one walker gives.
func TestEnumerateParallelSameAsOne(t *testing.T) {
	root := t.TempDir()
	stores, _ := allStores("plans references/decisions/ extra")
	for i := range 400 {
		dir := filepath.Join(root, stores[i%len(stores)], fmt.Sprintf("d%d", i%3))
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("r%d.md", i)), []byte("x"), 0o644)
	}
	os.Symlink(filepath.Join(root, "plans"), filepath.Join(root, "titw")) // a symlinked store
	locked := filepath.Join(root, "references/solutions/locked")
	os.MkdirAll(locked, 0o755)
	os.Chmod(locked, 0) // unreadable, unless we are root
	defer os.Chmod(locked, 0o755)
	walk := func(procs int) ([]entry, []error) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		return enumerate(root, stores, false)
	}
	e1, s1 := walk(1)
	e4, s4 := walk(4)
	if len(e1) < 400 {
		t.Fatalf("only %d entries", len(e1))
	}
	if !reflect.DeepEqual(e1, e4) {
		t.Error("entries differ between one walker and four")
	}
	if fmt.Sprint(s1) != fmt.Sprint(s4) {
		t.Errorf("errors differ: %v, %v", s1, s4)
	}
}

// joinRuns gives exactly what a stable sort of the stores' entries (in
// store order) gives: for disjoint stores, nested or overlapping ones
// (the same path from two stores), stores whose subdirectories interleave
// their files, and empty stores.
func TestJoinRuns(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	prefixes := []string{"a/", "b/", "a/x/", "c/", "b/", "a-b/", "ab/"}
	for round := range 400 {
		walkers := make([]walker, 1+r.IntN(5))
		var all []entry
		for i := range walkers {
			p := prefixes[r.IntN(len(prefixes))]
			seen := map[string]bool{}
			for range r.IntN(12) {
				name := p + string(rune('a'+r.IntN(5)))
				if r.IntN(3) == 0 {
					name += "/" + string(rune('a'+r.IntN(3)))
				}
				name += ".md"
				if seen[name] {
					continue
				}
				seen[name] = true
				walkers[i].out = append(walkers[i].out, entry{path: name, store: int32(i)})
			}
			if r.IntN(2) == 0 { // as a walk lists them: sorted, or files before subdirectories
				slices.SortFunc(walkers[i].out, func(a, b entry) int { return strings.Compare(a.path, b.path) })
			}
			all = append(all, walkers[i].out...)
		}
		want := slices.Clone(all)
		slices.SortStableFunc(want, func(a, b entry) int { return strings.Compare(a.path, b.path) })
		got := joinRuns(walkers)
		if !slices.EqualFunc(got, want, func(a, b entry) bool { return a.path == b.path && a.store == b.store }) {
			t.Fatalf("round %d:\ngot  %v\nwant %v", round, got, want)
		}
	}
}
