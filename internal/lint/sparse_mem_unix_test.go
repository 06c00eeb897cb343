//go:build unix

package lint

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

const childRootEnv = "LINT_MEM_CHILD_ROOT"

// TestLintMemChild is the child process of BenchmarkLintSparseCorpusPeakMemory:
// it lints the corpus named in the environment and exits. Without that
// environment it does nothing.
func TestLintMemChild(t *testing.T) {
	root := os.Getenv(childRootEnv)
	if root == "" {
		t.Skip("child of BenchmarkLintSparseCorpusPeakMemory only")
	}
	if _, err := LintCorpus(root); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkLintSparseCorpusPeakMemory lints, in a child process, a corpus
// holding two 2 GB sparse records (one valid, one whose frontmatter never
// closes) and reports the child's peak RSS as maxrss-MiB: a few MiB above
// an empty test binary's, as the queries' (internal/corpus
// BenchmarkSparseCorpusPeakMemory), since the lint reads heads only.
func BenchmarkLintSparseCorpusPeakMemory(b *testing.B) {
	root := b.TempDir()
	dir := filepath.Join(root, "plans")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	write := func(name, head string, size int64) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(head), 0o644); err != nil {
			b.Fatal(err)
		}
		if size > 0 {
			if err := os.Truncate(p, size); err != nil {
				b.Fatal(err)
			}
		}
	}
	const twoGB = 2 << 30
	write("huge.md", "---\nid: plan.huge\nkind: plan\ndate: 2026-01-01\nkeywords: [huge]\nlinks: []\nstatus: active\n---\n# Huge\n", twoGB)
	write("open.md", "---\nid: plan.open\nkind: plan\nkeywords: [open]\n", twoGB)
	write("small.md", "---\nid: plan.small\nkind: plan\ndate: 2026-01-01\nkeywords: [small]\nlinks: []\nstatus: active\n---\n# Small\n", 0)
	var peak int64
	for b.Loop() {
		cmd := exec.Command(os.Args[0], "-test.run=^TestLintMemChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), childRootEnv+"="+root)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("child: %v\n%s", err, out)
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			peak = max(peak, int64(ru.Maxrss)) // KiB on Linux
		}
	}
	b.ReportMetric(float64(peak)/1024, "maxrss-MiB")
}
