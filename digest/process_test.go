package digest

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"testing"

	"github.com/procedures-go/procedures/internal/proctest"
)

// writerEnv makes the test binary act as one writer process (see TestMain):
// it blocks reading stdin (the barrier) and then writes one digest for key
// s1 into the directory its SESSION_DIGEST_DIR names (the test's own
// variable: the package reads none).
const writerEnv = "DIGEST_TEST_WRITER"

func TestMain(m *testing.M) {
	if id := os.Getenv(writerEnv); id != "" {
		io.Copy(io.Discard, os.Stdin)
		if _, err := mustOpen(os.Getenv("SESSION_DIGEST_DIR")).Write("s1", "concurrent-payload-"+id); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// Concurrent writers across processes: 100 separate writer processes, all started and
// parked on their stdin, released together by closing every pipe.
func TestConcurrentWriterProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	const n = 100
	s := newStore(t)
	s.keep = 0
	var cmds []*exec.Cmd
	for i := range n {
		cmd := proctest.Self(t, nil, fmt.Sprintf("%s=%d", writerEnv, i), "SESSION_DIGEST_DIR="+s.dir)
		cmd.Stderr = os.Stderr
		cmds = append(cmds, cmd)
	}
	if err := proctest.RunParked(cmds, nil); err != nil {
		t.Errorf("writer: %v", err)
	}
	checkAllPayloads(t, s, n)
}
