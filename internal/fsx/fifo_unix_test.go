//go:build unix

package fsx

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

var errPerm = syscall.EPERM

// Neither a reader nor a writer waits on a FIFO nobody opened: OpenRegular
// refuses it at once, and an O_WRONLY|NonBlock open fails at once.
func TestFIFONeverWaits(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip(err)
	}
	// One at a time: a writer's open succeeds while a reader holds the
	// FIFO open, so the two opens must not overlap. Neither may wait.
	opens := []struct {
		name string
		open func() error
		want []error
	}{
		{"write-only, no reader", func() error {
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|NonBlock, 0)
			if err == nil {
				f.Close()
			}
			return err
		}, []error{syscall.ENXIO}},
		{"OpenRegular", func() error {
			f, err := OpenRegular(p)
			if err == nil {
				f.Close()
			}
			return err
		}, []error{ErrNotRegular, syscall.ENXIO}},
	}
	for _, o := range opens {
		done := make(chan error, 1)
		go func() { done <- o.open() }()
		select {
		case err := <-done:
			if err == nil {
				t.Fatalf("%s: a FIFO was opened as a file", o.name)
			}
			if !slices.ContainsFunc(o.want, func(w error) bool { return errors.Is(err, w) }) {
				t.Fatalf("%s: err %v, want one of %v", o.name, err, o.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the open waited on a FIFO", o.name)
		}
	}
}
