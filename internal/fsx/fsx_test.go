package fsx

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func names(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

func fixed(name string) func() string { return func() string { return name } }

// CreateExclusive never replaces an existing file: the second create of one
// name fails with fs.ErrExist and the first content stays.
func TestCreateExclusiveNeverReplaces(t *testing.T) {
	dir := t.TempDir()
	o := File{Perm: 0o666}
	if _, err := o.CreateExclusive(dir, fixed("r.md"), []byte("one")); err != nil {
		t.Fatal(err)
	}
	_, err := o.CreateExclusive(dir, fixed("r.md"), []byte("two"))
	if !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second create: %v, want fs.ErrExist", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "r.md")); string(b) != "one" {
		t.Fatalf("content %q", b)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"r.md"}) {
		t.Fatalf("dir holds %v", got)
	}
}

// A collision draws a new name, up to Attempts, and the taken file
// survives.
func TestCreateExclusiveRetries(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "n0"), []byte("theirs"), 0o600)
	i := 0
	next := func() string { s := "n" + strconv.Itoa(i); i++; return s }
	name, err := File{Perm: 0o600, StaticPerm: true, Temp: "t", Attempts: 3}.CreateExclusive(dir, next, []byte("ours"))
	if err != nil || name != "n1" {
		t.Fatalf("CreateExclusive = %q, %v; want n1", name, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "n0")); string(b) != "theirs" {
		t.Fatalf("the taken file now holds %q", b)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"n0", "n1"}) {
		t.Fatalf("dir holds %v (a temporary file left?)", got)
	}
	var se *StepError
	_, err = File{Perm: 0o600, Attempts: 2}.CreateExclusive(dir, fixed("n0"), []byte("x"))
	if !errors.As(err, &se) || se.Op != "publish" || !errors.Is(err, fs.ErrExist) {
		t.Fatalf("every name taken: %v, want a publish *StepError matching fs.ErrExist", err)
	}
}

// Without hard links the file is still published once, whole, with its
// mode: by reservation and rename (Reserve) or in place.
func TestCreateExclusiveNoLinks(t *testing.T) {
	for _, reserve := range []bool{true, false} {
		dir := t.TempDir()
		o := File{Perm: 0o600, StaticPerm: true, Reserve: reserve,
			Link: func(old, new string) error { return &os.LinkError{Op: "link", Old: old, New: new, Err: errPerm} }}
		name, err := o.CreateExclusive(dir, fixed("f"), []byte("data\n"))
		if err != nil || name != "f" {
			t.Fatalf("reserve=%v: %q, %v", reserve, name, err)
		}
		if got := names(t, dir); !slices.Equal(got, []string{"f"}) {
			t.Fatalf("reserve=%v: dir holds %v", reserve, got)
		}
		fi, _ := os.Stat(filepath.Join(dir, "f"))
		if b, _ := os.ReadFile(filepath.Join(dir, "f")); string(b) != "data\n" || fi.Mode().Perm() != 0o600 {
			t.Fatalf("reserve=%v: %q mode %v", reserve, b, fi.Mode().Perm())
		}
	}
}

// A failed content write leaves nothing behind, and the temporary file is
// a dot file inside the destination directory, never in $TMPDIR.
func TestCreateExclusiveFailedWrite(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", t.TempDir())
	var tmp string
	o := File{Perm: 0o600, Temp: "digest.tmp", Write: func(f *os.File, b []byte) (int, error) {
		tmp = f.Name()
		n, _ := f.Write(b[:1])
		return n, errors.New("no space left on device")
	}}
	_, err := o.CreateExclusive(dir, fixed("x"), []byte("body"))
	var se *StepError
	if !errors.As(err, &se) || se.Op != "write" {
		t.Fatalf("err %v, want a write *StepError", err)
	}
	if filepath.Dir(tmp) != dir || !strings.HasPrefix(filepath.Base(tmp), ".digest.tmp") {
		t.Fatalf("temporary file %q, want .digest.tmp* in %s", tmp, dir)
	}
	if got := names(t, dir); len(got) != 0 {
		t.Fatalf("a failed write left %v", got)
	}
}

// Replace keeps the old content whole when the writer dies half-way (the
// child is this test binary, killed by os.Exit in the content write), and
// keeps an existing file's mode with KeepPerm.
func TestReplaceCrashKeepsOldContent(t *testing.T) {
	if p := os.Getenv("FSX_CRASH_TARGET"); p != "" {
		File{Perm: 0o666, KeepPerm: true, Write: func(f *os.File, b []byte) (int, error) {
			f.Write(b[:len(b)/2])
			f.Sync()
			os.Exit(3)
			return 0, nil
		}}.Replace(p, bytes.Repeat([]byte("new "), 1<<16))
		os.Exit(0)
	}
	p := filepath.Join(t.TempDir(), "r.md")
	old := bytes.Repeat([]byte("old "), 1<<16)
	if err := os.WriteFile(p, old, 0o640); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestReplaceCrashKeepsOldContent$")
	cmd.Env = append(os.Environ(), "FSX_CRASH_TARGET="+p)
	if err := cmd.Run(); err == nil {
		t.Fatal("child: exit 0, want 3")
	} else if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Fatalf("child: %v, want exit 3", err)
	}
	if b, _ := os.ReadFile(p); !bytes.Equal(b, old) {
		t.Fatalf("after a crash mid-rewrite the file holds %d bytes, want the old content whole", len(b))
	}
	if err := (File{Perm: 0o666, KeepPerm: true}).Replace(p, []byte("new")); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	if b, _ := os.ReadFile(p); string(b) != "new" || fi.Mode().Perm() != 0o640 {
		t.Fatalf("after Replace: %q mode %v, want \"new\" mode 0640", b, fi.Mode().Perm())
	}
}

func TestOpenRegular(t *testing.T) {
	dir := t.TempDir()
	if _, err := OpenRegular(dir); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("OpenRegular(dir) = %v, want ErrNotRegular", err)
	}
	p := filepath.Join(dir, "f")
	os.WriteFile(p, []byte("x"), 0o600)
	f, err := OpenRegular(p)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
}
