package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
)

// Issue 18 "--cat race": a listed record swapped, between the scan and the
// open, for a symlink to (or a rename of) another file of the same store
// must not dump that file: the open does not follow a symlink, and the file
// opened must be the one the scan saw (device and inode, OpenIdentified).
func TestCatRefusesRecordSwappedAfterScan(t *testing.T) {
	for _, swap := range []string{"symlink", "rename", "hardlink"} {
		t.Run(swap, func(t *testing.T) {
			if runtime.GOOS == "windows" && swap != "rename" {
				t.Skip("no symlinks or hard links to rely on")
			}
			root := mkTree(t, map[string]string{
				"plans/r.md":             rec("plan.r", "plan", "[race]", "R"),
				"plans/notes/secret.txt": "not a record: secret\n",
			})
			c, err := OpenIdentified(root, []string{"plans"})
			if err != nil {
				t.Fatal(err)
			}
			plain, err := Open(root, []string{"plans"}) // not identified: a symlink is still refused
			if err != nil {
				t.Fatal(err)
			}
			rec, secret := filepath.Join(root, "plans/r.md"), filepath.Join(root, "plans/notes/secret.txt")
			if err := os.Remove(rec); err != nil {
				t.Fatal(err)
			}
			switch swap {
			case "symlink":
				err = os.Symlink("notes/secret.txt", rec)
			case "rename":
				err = os.Rename(secret, rec)
			case "hardlink":
				err = os.Link(secret, rec)
			}
			if err != nil {
				t.Fatal(err)
			}
			dumps, err := c.Cat([]string{"plans/r.md"})
			if err == nil {
				t.Fatalf("Cat dumped a file swapped in after the scan: %q", dumps[0].Content)
			}
			_, err = c.ReadFile("plans/r.md")
			switch {
			case err == nil:
				t.Fatal("ReadFile read a file swapped in after the scan")
			case swap == "symlink" && runtime.GOOS == "linux" && !errors.Is(err, syscall.ELOOP):
				t.Errorf("symlink swapped in: %v, want ELOOP (opened without following it)", err)
			case swap != "symlink" && !errors.Is(err, ErrChanged):
				t.Errorf("%s: %v, want ErrChanged", swap, err)
			}
			if _, err := plain.ReadFile("plans/r.md"); swap == "symlink" && err == nil {
				t.Error("Open's ReadFile followed a symlink swapped in")
			}
		})
	}
	// the record the scan saw is still read
	root := mkTree(t, map[string]string{"plans/r.md": rec("plan.r", "plan", "[race]", "R")})
	c, err := OpenIdentified(root, []string{"plans"})
	if err != nil {
		t.Fatal(err)
	}
	if d, err := c.Cat([]string{"plans/r.md"}); err != nil || len(d) != 1 {
		t.Fatalf("unswapped record: %v", err)
	}
}
