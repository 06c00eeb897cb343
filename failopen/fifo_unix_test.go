//go:build unix

package failopen

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
)

// 4.5 "nothing may block on the log": a log path that is a FIFO nobody reads
// loses the record instead of parking the hook forever in open(2). (Without
// the fix this test never returns and the test binary's -timeout fails it.)
func TestRecordNeverBlocksOnFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "gate-failopen.jsonl")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	err := (&Log{Path: p}).Record("digest-record", "malformed-payload", "")
	if !errors.Is(err, syscall.ENXIO) {
		t.Fatalf("Record into a FIFO without a reader = %v, want ENXIO (record lost, not blocked)", err)
	}
}
