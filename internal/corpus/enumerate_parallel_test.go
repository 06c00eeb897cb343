package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
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
