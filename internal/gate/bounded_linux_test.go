package gate_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/gate"
)

// Issue 15, class 11: a 1 MB nested command and a 15 MB flat one are
// denied by how-do-i-gate (exit 0, the deny JSON) with a peak RSS of at most
// 64 MiB, the child's VmHWM (/proc). The context is a hang detector only (no
// timing assertion): a child still running after a minute is killed. Under
// -race the bound is not asserted (raceEnabled); the deny verdict still is.
func TestHowDoIGateBoundedOnHugeCommands(t *testing.T) {
	const maxRSS = 64 << 20
	s := newSandbox(t)
	if r := s.run(t, "turn-state-reset", []byte(`{"session_id":"S1","prompt":"hi"}`)); r.code != 0 {
		t.Fatalf("turn-state-reset: exit %d, %s", r.code, r.stderr)
	}
	commands := map[string]string{
		"1 MB nested": strings.Repeat("(", 1<<19) + "ls" + strings.Repeat(")", 1<<19),
		"15 MB flat":  strings.Repeat("ls;", 5<<20),
		"60 KiB flat": strings.Repeat("ls;", 20<<10),
	}
	for name, c := range commands {
		payload, err := json.Marshal(map[string]any{"session_id": "S1", "tool_name": "Bash",
			"tool_input": map[string]string{"command": c}})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := s.command(t, "how-do-i-gate", payload)
		hang := exec.CommandContext(ctx, cmd.Path, cmd.Args[1:]...)
		hwmFile := filepath.Join(t.TempDir(), "hwm")
		hang.Env, hang.Dir, hang.Stdin = append(cmd.Env, hwmFileEnv+"="+hwmFile), cmd.Dir, cmd.Stdin
		out, err := hang.Output()
		cancel()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		want := ""
		if name != "60 KiB flat" {
			want = string(gate.Deny(gate.DenyReason))
		}
		if string(out) != want {
			t.Errorf("%s: stdout %.200q, want %q", name, out, want)
		}
		// The child's own peak: rusage's ru_maxrss would include this
		// process's pages (the child starts as a vfork of it), so the
		// child reports VmHWM from /proc/self/status as it exits.
		hwm, err := os.ReadFile(hwmFile)
		if err != nil {
			t.Fatalf("%s: the child wrote no VmHWM: %v", name, err)
		}
		kib, err := strconv.ParseInt(strings.TrimSpace(string(hwm)), 10, 64)
		if err != nil {
			t.Fatalf("%s: VmHWM %q: %v", name, hwm, err)
		}
		rss := kib << 10
		t.Logf("%s (%d bytes): peak RSS %d KiB", name, len(c), rss>>10)
		if rss > maxRSS && !raceEnabled {
			t.Errorf("%s: peak RSS %d KiB, over %d KiB", name, rss>>10, maxRSS>>10)
		}
	}
}
