package apisurface

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSeparateModule builds testdata/consumer/main.go.txt as the main
// package of a module of its own, which requires this one (replaced by the
// working tree) and sees only what any importer sees, and checks that the
// program prints testdata/consumer/want.txt. Nothing is downloaded
// (GOPROXY=off, GOFLAGS=-mod=mod, the repository's go.sum): the
// dependencies come from the module cache the repository's own build filled.
func TestSeparateModule(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := os.ReadFile(filepath.Join("testdata", "consumer", "main.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "consumer", "want.txt"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(repo, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// The repository's own requirements too, so that the module graph is
	// the pruned one its build loaded (else go loads the go.mod of every
	// version any dependency names, which the cache need not hold).
	gomod := "module example.com/consumer\n\ngo 1.26.0\n\n" +
		"require github.com/procedures-go/procedures v0.0.0\n\n" +
		requireBlocks(string(mod)) +
		"replace github.com/procedures-go/procedures => " + repo + "\n"
	for name, data := range map[string][]byte{"go.mod": []byte(gomod), "go.sum": sum, "main.go": prog} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	start := time.Now()
	cmd := exec.Command(goBin, "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("go run in the consumer module: %v\n%s", err, stderr.String())
	}
	t.Logf("go run took %v", time.Since(start).Round(time.Millisecond))
	if got := stdout.String(); got != string(want) {
		t.Errorf("the consumer printed\n%s\nwant (testdata/consumer/want.txt)\n%s", got, want)
	}
	if strings.Contains(stderr.String(), "downloading") {
		t.Errorf("go run downloaded modules:\n%s", stderr.String())
	}
}

// requireBlocks is the require directives of a go.mod, each block kept
// whole.
func requireBlocks(mod string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.SplitAfter(mod, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case in:
			b.WriteString(line)
			in = t != ")"
		case strings.HasPrefix(t, "require ("):
			b.WriteString(line)
			in = true
		case strings.HasPrefix(t, "require "):
			b.WriteString(line)
		}
	}
	return b.String() + "\n"
}
