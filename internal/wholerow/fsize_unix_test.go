//go:build unix

package wholerow_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/procedures-go/procedures/internal/gatelog"
	"github.com/procedures-go/procedures/internal/recordwrite"
	"github.com/procedures-go/procedures/internal/wholerow"
)

const childEnv = "WHOLEROW_TEST_CHILD"

// TestMain runs the child: with WHOLEROW_TEST_CHILD=<writer> <limit> <path>
// it ignores SIGXFSZ, sets RLIMIT_FSIZE to limit and appends one row to
// path through writer, printing the error (or "ok").
func TestMain(m *testing.M) {
	if v := os.Getenv(childEnv); v != "" {
		os.Exit(child(v))
	}
	os.Exit(m.Run())
}

var row = []byte(`{"ts":"2026-12-01T00:00:00Z","category":"a-row-that-is-long-enough-to-be-cut"}` + "\n")

func child(spec string) int {
	var writer, path string
	var limit uint64
	if _, err := fmt.Sscan(spec, &writer, &limit, &path); err != nil {
		fmt.Println("bad spec:", err)
		return 3
	}
	signal.Ignore(syscall.SIGXFSZ)
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: limit, Max: limit}); err != nil {
		fmt.Println("setrlimit:", err)
		return 3
	}
	var err error
	switch writer {
	case "wholerow":
		var f *os.File
		if f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0); err == nil {
			err = wholerow.Append(f, row)
			f.Close()
		}
	case "failopen":
		err = gatelog.AppendLine(path, row)
	case "recordwrite":
		err = recordwrite.Append(path, row)
	}
	if err != nil {
		fmt.Println(err)
		return 1
	}
	fmt.Println("ok")
	return 0
}

// Issue 18 "no torn rows": a short O_APPEND write under a real
// RLIMIT_FSIZE (in a child process, SIGXFSZ ignored) leaves the file as it
// was, and the next row starts on a line of its own. Each writer of a JSONL
// log goes through it: wholerow itself, the fail-open log and
// mistakes.jsonl.
func TestShortWriteLeavesNoPartialRow(t *testing.T) {
	first := []byte(`{"ts":"2026-11-30T00:00:00Z"}` + "\n")
	for _, writer := range []string{"wholerow", "failopen", "recordwrite"} {
		t.Run(writer, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "log.jsonl")
			if err := os.WriteFile(path, first, 0o644); err != nil {
				t.Fatal(err)
			}
			limit := len(first) + 10 // room for 10 bytes of the row: a short write
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), childEnv+"="+writer+" "+strconv.Itoa(limit)+" "+path)
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 1 || !(bytes.Contains(out, []byte("file too large")) || bytes.Contains(out, []byte("short write"))) {
				t.Fatalf("child: %v, output %q; want exit 1 with EFBIG or a short write", err, out)
			}
			if got, _ := os.ReadFile(path); !bytes.Equal(got, first) {
				t.Fatalf("after a short write the file is %q, want it unchanged %q", got, first)
			}
		})
	}
}
