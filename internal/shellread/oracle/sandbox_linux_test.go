package oracle

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The worker side: a copy of the test binary, started by startWorker under
// unshare with fresh mount, network, PID, UTS and IPC namespaces. It makes
// the root file system read-only in its mount namespace, mounts private
// tmpfs file systems on every directory uid 65534 can write
// (reachable), builds the sandbox, then runs one job per input line and
// answers one result per output line.

const (
	workerEnv = "PROCEDURES_ORACLE_WORKER"
	nobody    = 65534
	// sandboxDir holds the repository (the working directory) and HOME.
	sandboxDir = "/tmp/sb"
	repoDir    = sandboxDir + "/repo"
	homeDir    = sandboxDir + "/home"
	// pristineDir is a root-only copy the sandbox is reset from.
	pristineDir = "/run/oracle"
	timeLimit   = 2 * time.Second
	outputLimit = 256 << 10
)

// reachable are the directories an unprivileged process can write on this
// machine (find / -xdev -perm -o+w -type d); each becomes a private tmpfs,
// and all of them are compared after every command.
var reachable = []string{"/tmp", "/var/tmp", "/run/lock", "/dev/shm"}

type job struct {
	ID    int    `json:"id"`
	Shell string `json:"shell"`
	Cmd   string `json:"cmd"`
}

type result struct {
	ID      int      `json:"id"`
	Changes []string `json:"changes,omitempty"`
	Exit    int      `json:"exit"`
	Timeout bool     `json:"timeout,omitempty"`
	Err     string   `json:"err,omitempty"`
	// listening: the sockets listening when the shell exited, before
	// what it left behind is killed (the worker's side only).
	listening int
}

// workerMain is the worker process's main function.
func workerMain() int {
	if err := setupNamespace(); err != nil {
		fmt.Fprintln(os.Stderr, "oracle worker:", err)
		return 1
	}
	if err := setupNetwork(); err != nil {
		fmt.Fprintln(os.Stderr, "oracle worker: network:", err)
		return 1
	}
	if err := buildSandbox(); err != nil {
		fmt.Fprintln(os.Stderr, "oracle worker: building the sandbox:", err)
		return 1
	}
	if err := os.CopyFS(pristineDir, os.DirFS(sandboxDir)); err != nil {
		fmt.Fprintln(os.Stderr, "oracle worker: copying the sandbox:", err)
		return 1
	}
	if err := os.Chmod(pristineDir, 0o700); err != nil {
		fmt.Fprintln(os.Stderr, "oracle worker:", err)
		return 1
	}
	base, err := reset()
	if err != nil {
		fmt.Fprintln(os.Stderr, "oracle worker: reset:", err)
		return 1
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	enc := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var j job
		if err := json.Unmarshal(in.Bytes(), &j); err != nil {
			fmt.Fprintln(os.Stderr, "oracle worker: bad job:", err)
			return 1
		}
		h0 := readHostState()
		r := run(j)
		h1 := readHostState()
		h1.listening = r.listening
		after, err := snapshot()
		if err != nil {
			r.Err = err.Error()
		}
		r.Changes = append(diff(base, after), hostChanges(h0, h1)...)
		if err == nil && statRefresh(r.Changes, indexListing) {
			// git refreshed the stat data of the index and nothing else
			r.Changes, base = nil, after
		}
		if len(r.Changes) > 0 || err != nil {
			if base, err = reset(); err != nil {
				fmt.Fprintln(os.Stderr, "oracle worker: reset:", err)
				return 1
			}
		}
		if err := enc.Encode(r); err != nil {
			return 1
		}
	}
	return 0
}

func setupNamespace() error {
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making / private: %w", err)
	}
	if err := syscall.Mount("/", "/", "", syscall.MS_BIND|syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		return fmt.Errorf("remounting / read-only: %w", err)
	}
	// A fresh /run hides the host's sockets and holds the pristine copy.
	if err := syscall.Mount("tmpfs", "/run", "tmpfs", syscall.MS_NOSUID|syscall.MS_NODEV, "size=64m,mode=0755"); err != nil {
		return fmt.Errorf("mounting tmpfs on /run: %w", err)
	}
	if err := os.Mkdir("/run/lock", 0o755); err != nil {
		return err
	}
	for _, d := range reachable {
		if err := syscall.Mount("tmpfs", d, "tmpfs", syscall.MS_NOSUID|syscall.MS_NODEV, "size=64m,mode=1777"); err != nil {
			return fmt.Errorf("mounting tmpfs on %s: %w", d, err)
		}
	}
	return nil
}

// sandboxFiles is the small tree of the repository (see files in gen.go).
var sandboxFiles = map[string]string{
	"f":            "a\nb\nc a\nb\n",
	"g":            "a\nx\n",
	"n":            "3\n1\n2\n",
	"d.hex":        "00000000: 6869 0a                                  hi.\n",
	"y.json":       "{\"a\": 1}\n",
	"y.yaml":       "a: 1\n",
	"sub/h":        "h\n",
	"-delete":      "",
	"--output=OUT": "",
}

// buildSandbox makes the repository: committed files, a changed file for
// the stash, branches b1 b2, tags t1 (light) and t2 (annotated), a
// config, and HOME with its own .gitconfig. Every file is owned by uid
// 65534 so that a command that writes succeeds and is seen.
func buildSandbox() error {
	for _, d := range []string{repoDir + "/sub", homeDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	for name, body := range sandboxFiles {
		if err := os.WriteFile(filepath.Join(repoDir, name), []byte(body), 0o644); err != nil {
			return err
		}
	}
	if err := writeArchives(); err != nil {
		return err
	}
	if err := os.WriteFile(homeDir+"/.gitconfig", []byte("[user]\n\tname = Home\n\temail = h@example.com\n"), 0o644); err != nil {
		return err
	}
	if err := os.Chmod(repoDir+"/n", 0o755); err != nil {
		return err
	}
	steps := [][]string{
		{"init", "-q", "-b", "main"},
		{"config", "user.name", "Oracle"},
		{"config", "user.email", "o@example.com"},
		{"add", "-A"},
		{"commit", "-qm", "one"},
		{"branch", "b1"},
		{"branch", "b2"},
		{"tag", "t1"},
		{"tag", "-a", "t2", "-m", "two"},
	}
	for _, s := range steps {
		if err := gitAsRoot(s...); err != nil {
			return err
		}
	}
	if err := os.WriteFile(repoDir+"/f", []byte("changed\n"), 0o644); err != nil {
		return err
	}
	if err := gitAsRoot("stash", "-q"); err != nil {
		return err
	}
	if err := os.WriteFile(repoDir+"/g", []byte("a\nx\nworking change\n"), 0o644); err != nil {
		return err
	}
	return nil
}

// writeArchives makes a.tar (holding f), a.tgz (the same, gzipped) and
// a.gz (f gzipped) for the listing forms of tar, gzip and zcat.
func writeArchives() error {
	body := []byte(sandboxFiles["f"])
	var t bytes.Buffer
	tw := tar.NewWriter(&t)
	if err := tw.WriteHeader(&tar.Header{Name: "f", Mode: 0o644, Size: int64(len(body))}); err != nil {
		return err
	}
	if _, err := tw.Write(body); err != nil {
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	gz := func(b []byte) []byte {
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(b)
		zw.Close()
		return z.Bytes()
	}
	for name, b := range map[string][]byte{"a.tar": t.Bytes(), "a.tgz": gz(t.Bytes()), "a.gz": gz(body)} {
		if err := os.WriteFile(filepath.Join(repoDir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func gitAsRoot(args ...string) error {
	c := exec.Command("git", append([]string{"-c", "safe.directory=*"}, args...)...)
	c.Dir = repoDir
	c.Env = []string{"HOME=" + homeDir, "PATH=/usr/local/bin:/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM=1"}
	out, err := c.CombinedOutput()
	if err != nil {
		return fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return nil
}

// reset empties every reachable directory, copies the sandbox back from
// the pristine copy, gives it to uid 65534 with old file times, refreshes
// the index as that user (so that git status has nothing to rewrite) and
// returns the baseline snapshot.
func reset() (map[string]entry, error) {
	for _, d := range reachable {
		names, err := os.ReadDir(d)
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			if err := os.RemoveAll(filepath.Join(d, n.Name())); err != nil {
				return nil, err
			}
		}
	}
	if err := os.CopyFS(sandboxDir, os.DirFS(pristineDir)); err != nil {
		return nil, err
	}
	// tmux makes its socket directory on first use; on a machine that runs
	// tmux it exists, so it does here.
	if err := os.Mkdir("/tmp/tmux-65534", 0o700); err != nil {
		return nil, err
	}
	if err := os.Chown("/tmp/tmux-65534", nobody, nobody); err != nil {
		return nil, err
	}
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	err := filepath.WalkDir(sandboxDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := os.Lchown(p, nobody, nobody); err != nil {
			return err
		}
		mode := fs.FileMode(0o644)
		if d.IsDir() {
			mode = 0o755
		} else if filepath.Base(p) == "n" { // one executable file, for modes
			mode = 0o755
		}
		if err := os.Chmod(p, mode); err != nil {
			return err
		}
		return os.Chtimes(p, old, old)
	})
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(sandboxDir, 0o755); err != nil {
		return nil, err
	}
	c := exec.Command("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--",
		"git", "update-index", "-q", "--refresh")
	c.Dir, c.Env = repoDir, shellEnv()
	c.Run() // exits 1 with the working change in g; the index is refreshed all the same
	// A git status as that user settles anything else git refreshes on its
	// first run, so that the baseline is what a read-only git leaves.
	c = exec.Command("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--", "git", "status", "--porcelain")
	c.Dir, c.Env = repoDir, shellEnv()
	c.Run()
	killAll()
	indexListing = listIndex()
	return snapshot()
}

// indexListing is what the index holds after the last reset: every entry's
// tag (which shows assume-unchanged and skip-worktree), mode, object, stage
// and path (git ls-files -s -v), not its cached stat data.
var indexListing string

func listIndex() string {
	c := exec.Command("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--",
		"git", "ls-files", "-s", "-v")
	c.Dir, c.Env = repoDir, shellEnv()
	out, err := c.Output()
	if err != nil {
		return "error: " + err.Error()
	}
	return string(out)
}

// statRefresh reports whether the only change is a rewritten .git/index
// whose entries are the same as before: a read-only git (status, diff)
// refreshes the cached stat data of an index it can lock, which changes
// nothing a later command sees.
func statRefresh(changes []string, before string) bool {
	if len(changes) != 1 || changes[0] != "modified "+repoDir+"/.git/index" {
		return false
	}
	return listIndex() == before
}

func shellEnv() []string {
	return []string{"HOME=" + homeDir, "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8", "USER=nobody", "LOGNAME=nobody", "TERM=dumb"}
}

// run runs one job as uid 65534 in its own process group, under the time
// and output limits, then kills whatever it left behind.
func run(j job) result {
	r := result{ID: j.ID}
	c := exec.Command("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--no-new-privs", "--",
		j.Shell, "-c", j.Cmd)
	c.Dir, c.Env = repoDir, shellEnv()
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out := &capped{limit: outputLimit}
	c.Stdout, c.Stderr = out, out
	if err := c.Start(); err != nil {
		r.Err = err.Error()
		return r
	}
	pgid := c.Process.Pid
	out.mu.Lock()
	out.kill = func() { syscall.Kill(-pgid, syscall.SIGKILL) }
	out.mu.Unlock()
	timer := time.AfterFunc(timeLimit, func() {
		out.mu.Lock()
		r.Timeout = true
		out.mu.Unlock()
		syscall.Kill(-pgid, syscall.SIGKILL)
	})
	err := c.Wait()
	timer.Stop()
	r.listening = listeningSockets()
	killAll()
	if ee, ok := err.(*exec.ExitError); ok {
		r.Exit = ee.ExitCode()
	}
	out.mu.Lock()
	defer out.mu.Unlock()
	return r
}

// killAll kills every other process of the PID namespace (the worker is its
// init, which kill(-1) spares) and reaps them.
func killAll() {
	syscall.Kill(-1, syscall.SIGKILL)
	for range 1000 {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, 0, nil)
		if pid <= 0 || err != nil {
			return
		}
	}
}

// capped keeps no output; past limit bytes it kills the command.
type capped struct {
	mu    sync.Mutex
	n     int
	limit int
	kill  func()
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n += len(p)
	if c.n > c.limit && c.kill != nil {
		c.kill()
		return 0, io.ErrShortWrite
	}
	return len(p), nil
}

// entry is what a snapshot records of one path. Directories are compared
// by their entries, owner and mode only (a temporary file created and
// removed again leaves no trace); everything else also by inode, size,
// link count, modification and change time (a rewrite changes ctime,
// which an unprivileged process cannot set back).
type entry struct {
	mode         fs.FileMode
	uid, gid     uint32
	ino, nlink   uint64
	size         int64
	mtime, ctime int64
	link         string
}

func snapshot() (map[string]entry, error) {
	m := map[string]entry{}
	for _, root := range reachable {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) {
					return nil
				}
				return err
			}
			var st syscall.Stat_t
			if err := syscall.Lstat(p, &st); err != nil {
				return err
			}
			e := entry{mode: fs.FileMode(st.Mode), uid: st.Uid, gid: st.Gid}
			if !d.IsDir() {
				e.ino, e.nlink, e.size = st.Ino, uint64(st.Nlink), st.Size
				e.mtime, e.ctime = st.Mtim.Nano(), st.Ctim.Nano()
				if d.Type()&fs.ModeSymlink != 0 {
					e.link, _ = os.Readlink(p)
				}
			}
			m[p] = e
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return m, nil
}

// diff describes every difference between two snapshots, sorted.
func diff(before, after map[string]entry) []string {
	var out []string
	for p, a := range after {
		b, ok := before[p]
		switch {
		case !ok:
			out = append(out, "created "+p)
		case a.mode != b.mode:
			out = append(out, fmt.Sprintf("mode of %s %o -> %o", p, uint32(b.mode), uint32(a.mode)))
		case a.uid != b.uid || a.gid != b.gid:
			out = append(out, "owner of "+p)
		case a != b:
			out = append(out, "modified "+p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			out = append(out, "removed "+p)
		}
	}
	sort.Strings(out)
	return out
}
