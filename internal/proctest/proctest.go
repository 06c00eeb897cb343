// Package proctest lets a test re-execute its own test binary: as a group of
// processes parked on their stdin and released together (to make them race),
// or as an unprivileged user (so that permission checks bind when the suite
// runs as root); and writes a tree of files for a test ([Tree]). It is
// imported by tests only.
package proctest

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Self is the test binary re-executed with its tests disabled, env (nil: the
// test's own environment) plus the extra variables. The caller's TestMain
// tells the role from a variable of extra. A given env gets the variables
// that go test set for the test binary itself (GOCOVERDIR under -cover,
// GORACE), as testscript passes them on, so that a coverage-instrumented
// child writes its counters instead of a warning on stderr.
func Self(tb testing.TB, env []string, extra ...string) *exec.Cmd {
	tb.Helper()
	exe, err := os.Executable()
	if err != nil {
		tb.Fatal(err)
	}
	if env == nil {
		env = os.Environ()
	} else {
		for _, name := range []string{"GOCOVERDIR", "GORACE"} {
			if v := os.Getenv(name); v != "" {
				env = append(slices.Clip(env), name+"="+v)
			}
		}
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(slices.Clip(env), extra...)
	return cmd
}

// RunParked starts every command with its stdin a pipe, writes input[i] (when
// there is one) into it, and only once all have started closes every pipe
// together: each process, blocked reading stdin until then, is released at
// the same moment. It waits for all and returns the first failure.
func RunParked(cmds []*exec.Cmd, input [][]byte) error {
	pipes := make([]io.WriteCloser, 0, len(cmds))
	defer func() {
		for _, p := range pipes {
			p.Close()
		}
	}()
	for i, cmd := range cmds {
		p, err := cmd.StdinPipe()
		if err != nil {
			return err
		}
		if err := cmd.Start(); err != nil {
			return err
		}
		pipes = append(pipes, p)
		if i < len(input) && len(input[i]) > 0 {
			if _, err := p.Write(input[i]); err != nil {
				return err
			}
		}
	}
	for _, p := range pipes {
		p.Close()
	}
	var first error
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Nobody is the account a privileged test run drops to.
const Nobody = "65534"

// Unprivileged rewrites prog and args so that, when this process runs as
// root, they run as uid/gid [Nobody] through setpriv(1). As any other user
// they are returned unchanged. scratch is a directory of the caller's, removed
// by it: a coverage-instrumented program gets a GOCOVERDIR there that nobody
// can write (root's own is not writable for nobody; those runs' counters are
// not merged). The caller makes sure the program and its working directory
// are reachable for others.
func Unprivileged(prog string, args []string, scratch string) (string, []string, error) {
	if os.Geteuid() != 0 {
		return prog, args, nil
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		return "", nil, errors.New("running as root and setpriv is not installed: cannot drop privileges")
	}
	cover, err := os.MkdirTemp(scratch, "gocoverdir-")
	if err == nil {
		err = os.Chmod(cover, 0o777)
	}
	if err != nil {
		return "", nil, err
	}
	return setpriv, append([]string{"--reuid=" + Nobody, "--regid=" + Nobody, "--clear-groups",
		"env", "GOCOVERDIR=" + cover, prog}, args...), nil
}

// childMark marks the child RunUnprivileged starts, so that a child still
// running as root fails instead of starting another.
const childMark = "PROCTEST_UNPRIVILEGED_CHILD"

// RunUnprivileged makes a test that needs permissions to bind run as a
// non-root user. As a non-root user it returns false and the test goes on.
// As root it re-runs just this test in a copy of the test binary as uid
// [Nobody] (through setpriv), reports the child's failure as its own, and
// returns true: the caller returns at once. The test must not depend on its
// working directory.
func RunUnprivileged(t *testing.T) bool {
	t.Helper()
	if os.Getenv(childMark) != "" && os.Geteuid() == 0 {
		t.Fatal("re-executed to drop privileges, and still root")
	}
	if os.Geteuid() != 0 {
		return false
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "proctest-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	copyExe := filepath.Join(dir, filepath.Base(exe))
	if err := copyFile(exe, copyExe); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	prog, args, err := Unprivileged(copyExe, []string{"-test.run=^" + t.Name() + "$", "-test.v"}, dir)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(prog, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), childMark+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("as uid %s: %v\n%s", Nobody, err, out)
	}
	t.Logf("ran as uid %s:\n%s", Nobody, out)
	return true
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o755)
}

// Tree writes files (slash-separated path -> content, mode 0644, parent
// directories 0755) under a new temporary directory and returns it.
func Tree(tb testing.TB, files map[string]string) string {
	tb.Helper()
	root := tb.TempDir()
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return root
}
