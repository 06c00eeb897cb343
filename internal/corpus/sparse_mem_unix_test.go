//go:build unix

package corpus

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

const childRootEnv, childModeEnv = "RECORDS_MEM_CHILD_ROOT", "RECORDS_MEM_CHILD_MODE"

// TestMemChild is the child process of BenchmarkSparseCorpusPeakMemory: it
// runs one operation over the corpus named in the environment and exits.
// Without that environment it does nothing.
func TestMemChild(t *testing.T) {
	root := os.Getenv(childRootEnv)
	if root == "" {
		t.Skip("child of BenchmarkSparseCorpusPeakMemory only")
	}
	c, err := Open(root, Stores())
	if err != nil {
		t.Fatal(err)
	}
	switch os.Getenv(childModeEnv) {
	case "kind":
		res, err := c.Query(Query{Kind: "plan"})
		if err != nil || len(res) != 2 {
			t.Fatalf("%d results, %v", len(res), err)
		}
	case "keyword":
		if _, err := c.Query(Query{Keyword: "huge small"}); err != nil {
			t.Fatal(err)
		}
	case "cat": // --full reads through the same ReadFile
		if _, err := c.Cat([]string{"plans/huge.md"}); err == nil {
			t.Fatal("a 2 GB record was dumped")
		}
	case "lint": // what the lint (internal/lint) reads each record with
		for _, p := range c.Paths() {
			if _, _, err := ReadFrontmatterHead(filepath.Join(root, p), nil); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// BenchmarkSparseCorpusPeakMemory runs each operation in a child process
// over a corpus holding two 2 GB sparse records (one valid, one whose
// frontmatter never closes) and reports the child's peak RSS as
// maxrss-MiB: it stays a few MiB above an empty test binary's, far below
// 64 MiB (upstream-shaped whole-file reads took 7 GB).
func BenchmarkSparseCorpusPeakMemory(b *testing.B) {
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
	for _, mode := range []string{"kind", "keyword", "cat", "lint"} {
		b.Run(mode, func(b *testing.B) {
			var peak int64
			for b.Loop() {
				cmd := exec.Command(os.Args[0], "-test.run=^TestMemChild$", "-test.count=1")
				cmd.Env = append(os.Environ(), childRootEnv+"="+root, childModeEnv+"="+mode)
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("child: %v\n%s", err, out)
				}
				if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
					peak = max(peak, int64(ru.Maxrss)) // KiB on Linux
				}
			}
			b.ReportMetric(float64(peak)/1024, "maxrss-MiB")
		})
	}
}
