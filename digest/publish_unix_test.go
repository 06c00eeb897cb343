//go:build !windows

package digest

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// A failed content write leaves no file behind.
func TestFailedWriteLeavesNothing(t *testing.T) {
	s := newStore(t)
	defer func(orig func(*os.File, []byte) (int, error)) { writeFile = orig }(writeFile)
	writeFile = func(f *os.File, b []byte) (int, error) {
		n, _ := f.Write(b[:len(b)/2])
		return n, errors.New("no space left on device")
	}
	var we *WriteError
	if _, err := s.Write("s1", "GOAL: x with a body"); !errors.As(err, &we) || we.Op != "write" {
		t.Fatalf("Write = %v, want a write *WriteError", err)
	}
	if got := digestFiles(t, s.dir); len(got) != 0 {
		t.Fatalf("a failed write left %q", got)
	}
}

// 9.2: a name collision draws a new name and never overwrites. The first
// name drawn is really taken (another writer's digest lands there first):
// that file must survive byte for byte and a second name must be drawn.
func TestCollisionRetries(t *testing.T) {
	s := newStore(t)
	calls := 0
	var taken string
	defer func(orig func(string, string) error) { link = orig }(link)
	link = func(old, new string) error {
		calls++
		if calls == 1 {
			taken = new
			if err := os.WriteFile(new, []byte("GOAL: someone else\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return os.Link(old, new)
	}
	name := mustWrite(t, s, "s1", "GOAL: x")
	if calls != 2 {
		t.Fatalf("link called %d times, want 2", calls)
	}
	if filepath.Join(s.dir, name) == taken {
		t.Fatalf("published under the taken name %q", name)
	}
	if data, err := os.ReadFile(taken); err != nil || string(data) != "GOAL: someone else\n" {
		t.Fatalf("the other digest was overwritten or removed: %q, %v", data, err)
	}
	if got := digestFiles(t, s.dir); len(got) != 2 {
		t.Fatalf("files %q, want two", got)
	}
	if out := read(t, s, "s1"); !strings.Contains(out, "GOAL: someone else\n") || !strings.Contains(out, "GOAL: x\n") {
		t.Fatalf("replay %q lacks a digest", out)
	}
}

// Without hard links (each errno a file system answers with for "no links
// here") the writer reserves the name and renames over it.
func TestNoHardLinkFallback(t *testing.T) {
	for _, errno := range []error{errPerm, syscall.ENOTSUP, syscall.EOPNOTSUPP, syscall.EMLINK, syscall.ENOSYS} {
		t.Run(errno.Error(), func(t *testing.T) {
			s := newStore(t)
			defer func(orig func(string, string) error) { link = orig }(link)
			link = func(old, new string) error {
				return &os.LinkError{Op: "link", Old: old, New: new, Err: errno}
			}
			name := mustWrite(t, s, "s1", "GOAL: fallback")
			if got := digestFiles(t, s.dir); !slices.Equal(got, []string{name}) {
				t.Fatalf("files %q, want only %q", got, name)
			}
			checkMode(t, filepath.Join(s.dir, name), 0o600)
			if out := read(t, s, "s1"); out != "==> prior /how-do-i digest 1 <==\nGOAL: fallback\n" {
				t.Fatalf("replay %q", out)
			}
		})
	}
}

// deterministic: while the body is half written, no file a reader
// could select exists yet; once Write returns, exactly the full digest does.
func TestNotVisibleMidWrite(t *testing.T) {
	s := newStore(t)
	defer func(orig func(*os.File, []byte) (int, error)) { writeFile = orig }(writeFile)
	var seen []string
	writeFile = func(f *os.File, b []byte) (int, error) {
		n, err := f.Write(b[:len(b)/2])
		if err != nil {
			return n, err
		}
		for _, name := range digestFiles(t, s.dir) {
			if !strings.HasPrefix(name, ".") {
				seen = append(seen, name)
			}
		}
		m, err := f.Write(b[len(b)/2:])
		return n + m, err
	}
	name := mustWrite(t, s, "s1", "GOAL: half and half")
	if len(seen) > 0 {
		t.Fatalf("selectable while half written: %q", seen)
	}
	if out := read(t, s, "s1"); out != "==> prior /how-do-i digest 1 <==\nGOAL: half and half\n" || !strings.HasPrefix(name, "s1.") {
		t.Fatalf("replay %q", out)
	}
}

// 2.4: the temporary file lives inside the digest directory (renameio's
// WithTempDir), never in $TMPDIR, and starts with a dot so no reader selects
// it.
func TestTempFileInsideStore(t *testing.T) {
	s := newStore(t)
	t.Setenv("TMPDIR", t.TempDir())
	defer func(orig func(*os.File, []byte) (int, error)) { writeFile = orig }(writeFile)
	var tmp string
	writeFile = func(f *os.File, b []byte) (int, error) {
		tmp = f.Name()
		return f.Write(b)
	}
	mustWrite(t, s, "s1", "GOAL: x")
	if filepath.Dir(tmp) != s.dir || !strings.HasPrefix(filepath.Base(tmp), ".") {
		t.Fatalf("temporary file %q, want a dot file directly in %q", tmp, s.dir)
	}
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Fatalf("temporary file left behind (stat: %v)", err)
	}
}
