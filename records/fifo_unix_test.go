//go:build unix

package records

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A FIFO swapped in after the scan is refused with ErrNotRegular, never
// waited on.
func TestReadFileFIFO(t *testing.T) {
	root := mkTree(t, map[string]string{"plans/a.md": rec("a", "plan", "[x]")})
	c, err := Open(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, "plans/a.md")
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip(err)
	}
	_, err = c.ReadFile("plans/a.md")
	if !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadFile of a FIFO: %v", err)
	}
	_, err = c.Cat([]string{"plans/a.md"})
	var se *ScanError
	if !errors.As(err, &se) || !errors.Is(err, ErrNotRegular) {
		t.Errorf("Cat of a FIFO: %v", err)
	}
}
