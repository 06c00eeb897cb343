package index_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// oneSecondFS mounts a fresh ext4 of 128-byte inodes (whole-second times)
// from a loop device and returns a directory on it. It skips, saying why,
// only where that cannot be done: not root, no mkfs.ext4, no free loop
// device.
func oneSecondFS(t *testing.T) string {
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

// startOfSecond waits for the next second to begin, so that what follows
// (well under a second of work) falls in one second.
func startOfSecond() {
	now := time.Now()
	time.Sleep(now.Truncate(time.Second).Add(time.Second + 20*time.Millisecond).Sub(now))
}

// On a real file system of one-second times: a record rewritten in place,
// same size, mtime put back, in the second a query read it, and a record
// created in a directory in the second a writer listed it, are both seen
// by the next run, whenever that is.
func TestOneSecondFileSystem(t *testing.T) {
	mnt := oneSecondFS(t)
	f := newFixture(t, 13, 0)
	f.root = filepath.Join(mnt, "corpus")
	for range 20 {
		f.add()
	}
	p := filepath.Join(f.root, "references/decisions/x.md")
	os.MkdirAll(filepath.Dir(p), 0o755)
	startOfSecond()
	os.WriteFile(p, []byte("---\nid: x\nkind: decision\n---\n# x\n"), 0o644)
	fi, _ := os.Stat(p)
	f.run(queries[0], false)
	b, _ := os.ReadFile(p)
	os.WriteFile(p, bytes.Replace(b, []byte("decision"), []byte("solution"), 1), 0o644)
	os.Chtimes(p, fi.ModTime(), fi.ModTime())
	if time.Since(fi.ModTime()) >= time.Second {
		t.Skip("the machine was too slow to stay within one second; nothing was proven")
	}
	time.Sleep(1100 * time.Millisecond)
	f.check("a same-size rewrite, mtime put back, in the second of the read")

	w := &wfixture{f}
	dec := filepath.Dir(p)
	rec := func(id, name string) string {
		q := filepath.Join(dec, name)
		os.WriteFile(q, []byte("---\nid: "+id+"\nkind: decision\ndate: 2026-01-01\nkeywords: [a]\nstatus: active\nlinks: []\n---\n# r\n"), 0o644)
		return q
	}
	startOfSecond()
	first := rec("first", "first.md")
	w.enforce(first, false) // lists the directory again, in this second
	rec("dup", "dup-a.md")
	if fi, _ := os.Stat(first); time.Since(fi.ModTime()) >= time.Second {
		t.Skip("the machine was too slow to stay within one second; nothing was proven")
	}
	time.Sleep(1100 * time.Millisecond)
	content := []byte("---\nid: dup\nkind: decision\ndate: 2026-01-01\nkeywords: [a]\nstatus: active\nlinks: []\n---\n# b\n")
	file := filepath.Join(dec, "dup-b.md")
	want := w.lint(file, content, true)
	if got := w.lint(file, content, false); got != want {
		t.Fatalf("the lint of a duplicate id with the index:\n%s\nwithout:\n%s", got, want)
	}
}
