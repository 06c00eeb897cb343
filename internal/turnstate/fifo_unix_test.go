//go:build unix

package turnstate

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestMarkNeverWaitsOnFIFO(t *testing.T) {
	s := newStore(t)
	s.Mark("s", "x")
	if err := syscall.Mkfifo(filepath.Join(s.Dir, "s.turn"), 0o666); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Reset("s", time.Now()) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Reset waited on a FIFO")
	}
}
