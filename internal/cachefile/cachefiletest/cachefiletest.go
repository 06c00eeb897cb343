// Package cachefiletest is test support for the indexes' tests: a corpus
// aged past the racy-clean rule, its records, and a real file system of
// one-second times to run them on.
package cachefiletest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/cachefile"
)

// Age puts every file's and directory's mtime below root an hour back and
// waits out their ctimes, which cannot be put back, so that no index entry
// or listing of them is racy.
func Age(root string) {
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && p != root {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	cachefile.WaitTrusted(root)
}

// Files are the .md files below root, in walk order.
func Files(root string) []string {
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// OneSecondFS mounts a fresh ext4 of 128-byte inodes (whole-second times)
// from a loop device and returns a directory on it. It skips, saying why,
// only where that cannot be done: not root, no mkfs.ext4, no free loop
// device.
func OneSecondFS(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("a loop-mounted file system of one-second times needs root")
	}
	for _, tool := range []string{"mkfs.ext4", "losetup", "mount", "umount"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("a loop-mounted file system of one-second times needs %s: %v", tool, err)
		}
	}
	tmp := t.TempDir()
	img, mnt := filepath.Join(tmp, "fs.img"), filepath.Join(tmp, "mnt")
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 16<<20); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mkfs.ext4", "-q", "-F", "-I", "128", img).CombinedOutput(); err != nil {
		t.Fatalf("mkfs.ext4 -I 128: %v\n%s", err, out)
	}
	out, err := exec.Command("losetup", "-f", "--show", img).CombinedOutput()
	if err != nil {
		t.Skipf("no loop device here (losetup -f: %v: %s)", err, bytes.TrimSpace(out))
	}
	dev := strings.TrimSpace(string(out))
	t.Cleanup(func() { exec.Command("losetup", "-d", dev).Run() })
	os.Mkdir(mnt, 0o700)
	if out, err := exec.Command("mount", dev, mnt).CombinedOutput(); err != nil {
		t.Fatalf("mount %s: %v\n%s", dev, err, out)
	}
	t.Cleanup(func() { exec.Command("umount", mnt).Run() })
	var st os.FileInfo
	probe := filepath.Join(mnt, "probe")
	os.WriteFile(probe, nil, 0o600)
	if st, err = os.Stat(probe); err != nil || st.ModTime().Nanosecond() != 0 {
		t.Fatalf("the file system keeps sub-second times (%v, %v): the test would prove nothing", st.ModTime(), err)
	}
	return mnt
}

// StartOfSecond waits for the next second to begin, so that what follows
// (well under a second of work) falls in one second.
func StartOfSecond() {
	now := time.Now()
	time.Sleep(now.Truncate(time.Second).Add(time.Second + 20*time.Millisecond).Sub(now))
}
