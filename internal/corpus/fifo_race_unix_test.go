//go:build unix

package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// A record swapped for a FIFO between the scan and the open must never hang
// a query, --cat or --full read: records are opened O_NONBLOCK and fstat'ed
// as regular files before reading. A swapper renames a FIFO and a regular
// file over the record in a loop while readers run; each read runs under a
// hang detector (a generous deadline that only a blocked open can miss; it
// measures nothing).
func TestFIFOSwapNeverHangs(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "plans")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 300 { // read before r.md: they widen the scan-to-open window
		name := filepath.Join(dir, fmt.Sprintf("a%03d.md", i))
		if err := os.WriteFile(name, []byte("---\nid: plan.a\nkind: plan\n---\n# A\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rec := filepath.Join(dir, "r.md")
	content := []byte("---\nid: plan.r\nkind: plan\nkeywords: [race]\n---\n# R\n")
	if err := os.WriteFile(rec, content, 0o644); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the swapper
		defer wg.Done()
		fifo, reg := filepath.Join(root, "fifo"), filepath.Join(root, "reg")
		for !stop.Load() {
			if err := syscall.Mkfifo(fifo, 0o644); err == nil {
				os.Rename(fifo, rec)
			}
			if err := os.WriteFile(reg, content, 0o644); err == nil {
				os.Rename(reg, rec)
			}
		}
	}()
	defer func() { stop.Store(true); wg.Wait() }()

	hangs := 0
	for i := range 300 {
		done := make(chan struct{})
		go func() {
			defer close(done)
			c, err := Open(root, Stores())
			if err != nil {
				return
			}
			switch i % 3 {
			case 0:
				c.Query(Query{Kind: "plan"})
			case 1:
				c.Cat([]string{"plans/r.md"})
			case 2:
				c.ReadFile("plans/r.md") // what --full reads
			}
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			hangs++
		}
		if hangs > 0 {
			t.Fatalf("read %d (mode %d) blocked on a FIFO swapped in for a record", i, i%3)
		}
	}
}
