package failopen

import (
	"bufio"
	"github.com/procedures-go/procedures/internal/gatelog"
	"github.com/procedures-go/procedures/internal/proctest"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// appenderEnv makes the test binary act as one appending process (see
// TestMain): it blocks on stdin (the barrier), then appends appenderLines
// records whose session id is its number, "-" and 3000 copies of one
// letter (cut to gatelog.MaxField bytes by Sanitize).
const (
	appenderEnv   = "FAILOPEN_TEST_APPENDER"
	appenderLines = 20
)

func TestMain(m *testing.M) {
	if id := os.Getenv(appenderEnv); id != "" {
		io.Copy(io.Discard, os.Stdin) // barrier: released when the parent closes stdin
		n, _ := strconv.Atoi(id)
		sid := id + "-" + strings.Repeat(string(rune('A'+n%26)), 3000)
		l := &Log{Path: os.Getenv("GATE_FAILOPEN_LOG")}
		for range appenderLines {
			l.Record("digest-record", "store-unwritable", sid)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// Many processes released together append only whole lines.
func TestConcurrentProcessesAppendWholeLines(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	const procs = 64
	logPath := filepath.Join(t.TempDir(), "gate-failopen.jsonl")
	var cmds []*exec.Cmd
	for i := range procs {
		cmds = append(cmds, proctest.Self(t, nil, appenderEnv+"="+strconv.Itoa(i), "GATE_FAILOPEN_LOG="+logPath, "HOME="+t.TempDir()))
	}
	if err := proctest.RunParked(cmds, nil); err != nil { // releases all writers together
		t.Fatalf("appender: %v", err)
	}
	f, err := os.Open(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<16)
	perProc := map[string]int{}
	lines := 0
	for {
		line, err := r.ReadBytes('\n')
		if err == io.EOF {
			if len(line) != 0 {
				t.Fatalf("trailing partial line %.80q", line)
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		lines++
		rec := parseRecord(t, line)
		sid := rec[3]
		id, letters, ok := strings.Cut(sid, "-")
		letters, cut := strings.CutSuffix(letters, gatelog.CutMarker)
		if !ok || !cut || len(sid) != gatelog.MaxField || strings.Trim(letters, letters[:1]) != "" {
			t.Fatalf("line %d interleaves writers: %.120q", lines, line)
		}
		perProc[id]++
	}
	if lines != procs*appenderLines {
		t.Fatalf("got %d lines, want %d", lines, procs*appenderLines)
	}
	for i := range procs {
		if got := perProc[strconv.Itoa(i)]; got != appenderLines {
			t.Errorf("process %d: %d lines, want %d", i, got, appenderLines)
		}
	}
}
