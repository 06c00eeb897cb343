//go:build unix

package logrecord

import (
	"bytes"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/cli"
)

// Issue 18: a mistakes.jsonl that is a FIFO nobody reads must not hang
// log-record mistake (nor the failure-mode gate count): the open never
// waits and only a regular file is accepted. Each run is under a hang
// detector: a generous deadline only a blocked open can miss.
func TestMistakesFIFONeverHangs(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "mistakes.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	env := cli.MapEnv(map[string]string{"CODEX_ROOT": dir, "MISTAKES_JSONL": fifo})
	for _, args := range [][]string{
		{"mistake", "--category", "c", "--description", "d", "--correction", "x", "--severity", "low", "--trigger", "self"},
		{"failure-mode", "--slug", "s", "--rule", "r", "--keywords", "[k]"},
	} {
		var errb bytes.Buffer
		done := make(chan int, 1)
		go func() { done <- Main(args, nil, &errb, &errb, env) }()
		select {
		case code := <-done:
			if code != 1 || !strings.Contains(errb.String(), "log-record: cannot ") {
				t.Errorf("%s into a FIFO: exit %d, stderr %q; want exit 1, a refusal", args[0], code, errb.String())
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s blocked on a FIFO mistakes.jsonl", args[0])
		}
	}
}
