//go:build unix

package offswitch

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Like the fail-open log, the escape log never parks a hook: a log path that
// is a FIFO nobody reads loses the record instead of blocking in open(2).
// (Without the guard this test never returns and -timeout fails it.)
func TestRecordNeverBlocksOnFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "gate-escape.jsonl")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	err := Record(p, FrontmatterCheck, "PROCEDURES_ENABLE_FRONTMATTER_CHECK", time.Now())
	if !errors.Is(err, syscall.ENXIO) {
		t.Fatalf("Record into a FIFO without a reader = %v, want ENXIO (record lost, not blocked)", err)
	}
}
