//go:build unix

package fsx

import (
	"errors"
	"os"
	"path/filepath"
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
	done := make(chan error, 2)
	go func() {
		_, err := OpenRegular(p)
		done <- err
	}()
	go func() {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|NonBlock, 0)
		if err == nil {
			f.Close()
		}
		done <- err
	}()
	for range 2 {
		select {
		case err := <-done:
			if err == nil {
				t.Fatal("a FIFO was opened as a file")
			}
			if !errors.Is(err, ErrNotRegular) && !errors.Is(err, syscall.ENXIO) {
				t.Fatalf("err %v, want ErrNotRegular or ENXIO", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("an open waited on a FIFO")
		}
	}
}
