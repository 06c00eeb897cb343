//go:build unix

package bundle

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// procKernel is the directory the launcher reads the kernel's name from.
const procKernel = "/proc/sys/kernel/"

// launcherTree writes a bundle's bin/ with the launcher and, for each
// platform, a stand-in binary (a shell script) that prints its directory
// variable, its name and its arguments, reads stdin, and exits 7. A fake
// uname on PATH reports sysMach. The launcher reads the kernel's answer from
// an empty fake /proc/sys/kernel (so it asks uname); launcherProcTree sets
// that directory.
func launcherTree(t *testing.T, sysMach string, platforms ...Platform) (root string, env []string) {
	t.Helper()
	return launcherProcTree(t, "fake", sysMach, platforms...)
}

// launcherProcTree is launcherTree with the launcher's /proc/sys/kernel at
// proc: "fake" for root/proc (empty: the test writes ostype and arch there),
// or "" for the real one.
func launcherProcTree(t *testing.T, proc, sysMach string, platforms ...Platform) (root string, env []string) {
	t.Helper()
	root = t.TempDir()
	bin := filepath.Join(root, "bin")
	for _, p := range platforms {
		d := filepath.Join(bin, p.String())
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		script := "#!/bin/sh\necho \"dir=$PROCEDURES_BIN_DIR self=${0##*/}\"\nfor a; do echo \"arg=$a\"; done\ncat\nexit 7\n"
		if err := os.WriteFile(filepath.Join(d, p.Exe()), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	text := Launcher(platforms)
	if !strings.Contains(text, procKernel) {
		t.Fatalf("the launcher does not read %s", procKernel)
	}
	if proc == "fake" {
		fakeProc := filepath.Join(root, "proc")
		os.Mkdir(fakeProc, 0o755)
		text = strings.ReplaceAll(text, procKernel, fakeProc+"/")
	}
	if err := os.WriteFile(filepath.Join(bin, "procedures"), []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	fake := filepath.Join(root, "fakebin")
	os.Mkdir(fake, 0o755)
	if err := os.WriteFile(filepath.Join(fake, "uname"), []byte("#!/bin/sh\necho '"+sysMach+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env = append(os.Environ(), "PATH="+fake+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+filepath.Join(root, "home"))
	return root, env
}

// A launcherMode is one way a shell starts the launcher: run as a script
// (sh <launcher> args, the documented usage) or sourced as hooks.json does
// (sh -c 'set -- <launcher> args; . "$1"'). argv is the command line.
type launcherMode struct {
	name string
	argv func(launcher string, args []string) []string
}

// launcherShells are the shells the launcher is tried with: sh, dash,
// bash, bash in POSIX mode and zsh, those on this PATH (sh always; under
// CI, which installs them first, every one).
func launcherShells(t *testing.T) [][]string {
	t.Helper()
	var shells [][]string
	for _, sh := range [][]string{{"sh"}, {"dash"}, {"bash"}, {"bash", "--posix"}, {"zsh"}} {
		if _, err := exec.LookPath(sh[0]); err == nil {
			shells = append(shells, sh)
		} else if sh[0] == "sh" || os.Getenv("CI") != "" {
			t.Fatalf("no %s on PATH", sh[0])
		}
	}
	return shells
}

// sourceLine is HookCommand's form for a launcher at path and args, each
// word single-quoted.
func sourceLine(launcher string, args []string) string {
	words := []string{"set", "--", shQuote(launcher)}
	for _, a := range args {
		words = append(words, shQuote(a))
	}
	return strings.Join(words, " ") + `; . "$1"`
}

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// launcherModes are both ways, run and sourced, under each launcher shell.
func launcherModes(t *testing.T) []launcherMode {
	t.Helper()
	var modes []launcherMode
	for _, sh := range launcherShells(t) {
		name := strings.Join(sh, "") // a word: a subtest's name, in its TempDir
		modes = append(modes,
			launcherMode{name + "-run", func(launcher string, args []string) []string {
				return append(append(append([]string(nil), sh...), launcher), args...)
			}},
			launcherMode{name + "-sourced", func(launcher string, args []string) []string {
				return append(append([]string(nil), sh...), "-c", sourceLine(launcher, args))
			}})
	}
	return modes
}

// runLauncherAs runs the launcher of the tree at root the way m says.
func runLauncherAs(t *testing.T, m launcherMode, root string, env []string, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	argv := m.argv(filepath.Join(root, "bin", "procedures"), args)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func TestLauncherRunsThePlatformBinary(t *testing.T) {
	for _, tc := range []struct {
		sysMach string
		want    Platform
	}{
		{"Linux x86_64", Platform{"linux", "amd64"}},
		{"Linux aarch64", Platform{"linux", "arm64"}},
		{"Darwin arm64", Platform{"darwin", "arm64"}},
		{"MINGW64_NT-10.0-19045 x86_64", Platform{"windows", "amd64"}},
		{"MSYS_NT-10.0 x86_64", Platform{"windows", "amd64"}},
		{"CYGWIN_NT-10.0 x86_64", Platform{"windows", "amd64"}},
	} {
		root, env := launcherTree(t, tc.sysMach, Platforms...)
		for _, m := range launcherModes(t) {
			out, errOut, code := runLauncherAs(t, m, root, env, "payload", "query-records", "a b", "")
			want := "dir=" + filepath.Join(root, "bin") + " self=" + tc.want.Exe() + "\narg=query-records\narg=a b\narg=\npayload"
			if out != want || code != 7 || errOut != "" {
				t.Errorf("%s, %s: got %q (stderr %q), exit %d; want %q, exit 7", tc.sysMach, m.name, out, errOut, code, want)
			}
			if tc.want.OS == "windows" && !strings.HasSuffix(out[:strings.Index(out, "\n")], ".exe") {
				t.Errorf("%s, %s: did not run the .exe", tc.sysMach, m.name)
			}
		}
	}
}

// On a platform the bundle has no binary for, the launcher says which
// platform it is and which are supported, and exits 0 for a hook (a hook
// never blocks a session) and 2 for anything else.
func TestLauncherUnknownPlatform(t *testing.T) {
	for _, tc := range []struct {
		sysMach, cmd string
		code         int
	}{
		{"Plan9 mips", "how-do-i-gate", 0},
		{"Plan9 mips", "digest-record", 0},
		{"Plan9 mips", "enforce-frontmatter", 0},
		{"Plan9 mips", "turn-state-reset", 0},
		{"Plan9 mips", "query-records", 2},
		{"Linux riscv64", "am-i-done-gate", 0},
		{"Linux riscv64", "lint-frontmatter", 2},
		{"FreeBSD amd64", "", 2},
	} {
		root, env := launcherTree(t, tc.sysMach, Platform{"linux", "amd64"})
		for _, m := range launcherModes(t) {
			out, errOut, code := runLauncherAs(t, m, root, env, "", tc.cmd)
			want := "procedures: no binary for this platform (" + tc.sysMach + "); this bundle carries: linux-amd64\n"
			if out != "" || errOut != want || code != tc.code {
				t.Errorf("%s %s, %s: stdout %q stderr %q exit %d; want stderr %q exit %d", tc.sysMach, tc.cmd, m.name, out, errOut, code, want, tc.code)
			}
		}
	}
}

// A bundle copied without its exec bits still runs.
func TestLauncherRestoresExecBit(t *testing.T) {
	root, env := launcherTree(t, "Linux x86_64", Platform{"linux", "amd64"})
	bin := filepath.Join(root, "bin", "linux-amd64", "procedures")
	os.Chmod(bin, 0o644)
	os.Chmod(filepath.Join(root, "bin", "procedures"), 0o644)
	for _, m := range launcherModes(t) {
		os.Chmod(bin, 0o644)
		if _, _, code := runLauncherAs(t, m, root, env, "", "x"); code != 7 {
			t.Errorf("%s: exit %d, want the binary's 7", m.name, code)
		}
	}
}

// A user who may not chmod the bundle (another user installed it without
// exec bits) runs a private copy from their own cache. The test needs root
// to make such a tree, and runs the launcher as nobody through setpriv.
func TestLauncherPrivateCopy(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to make a bundle another user owns (CI runs as root)")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("setpriv not found")
	}
	root, env := launcherTree(t, "Linux x86_64", Platform{"linux", "amd64"})
	// Let nobody reach the tree: open the test's own directories, never the
	// system's temporary directory itself.
	for d := root; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(root, "bin", "linux-amd64", "procedures")
	os.Chmod(bin, 0o644)
	home := filepath.Join(root, "home")
	os.Mkdir(home, 0o755)
	os.Chown(home, 65534, 65534)
	cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "sh", filepath.Join(root, "bin", "procedures"), "x")
	cmd.Env = env
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 7 {
		t.Fatalf("exit %v, want the binary's 7; stderr %s", err, err.(*exec.ExitError).Stderr)
	}
	if want := "dir=" + filepath.Join(root, "bin") + " self=procedures\narg=x\n"; string(out) != want {
		t.Errorf("stdout %q, want %q", out, want)
	}
	if fi, err := os.Stat(bin); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("the bundle's binary was changed: %v %v", fi.Mode(), err)
	}
	if _, err := os.Stat(filepath.Join(home, ".cache", "procedures", "linux-amd64", "procedures")); err != nil {
		t.Errorf("no private copy: %v", err)
	}
}

// nobodyTree is launcherTree for a bundle root owns, without exec bits, run
// by nobody (who may not restore them), with a stand-in that prints the path
// it was run as. It returns the tree, a TMPDIR nobody owns, and run, which
// runs the launcher as nobody the way m says with env (PATH is added) and
// returns stdout and the exit status.
func nobodyTree(t *testing.T, m launcherMode) (root, tmp string, run func(env ...string) (string, int)) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to make a bundle another user owns (CI runs as root)")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("setpriv not found")
	}
	root, env := launcherTree(t, "Linux x86_64", Platform{"linux", "amd64"})
	for d := root; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(root, "bin", "linux-amd64", "procedures")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho \"ran=$0\"\nexit 7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(bin, 0o644)
	tmp = filepath.Join(root, "tmp")
	os.Mkdir(tmp, 0o700)
	os.Chown(tmp, 65534, 65534)
	var path string
	for _, kv := range env {
		if strings.HasPrefix(kv, "PATH=") {
			path = kv
		}
	}
	run = func(env ...string) (string, int) {
		t.Helper()
		argv := append([]string{"--reuid=65534", "--regid=65534", "--clear-groups"}, m.argv(filepath.Join(root, "bin", "procedures"), []string{"x"})...)
		cmd := exec.Command(setpriv, argv...)
		cmd.Env = append([]string{path, "TMPDIR=" + tmp}, env...)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		out, err := cmd.Output()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if errb.Len() > 0 {
			t.Logf("stderr: %s", errb.String())
		}
		return string(out), code
	}
	return root, tmp, run
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names
}

// With HOME and XDG_CACHE_HOME unset there is no user cache: the copy is
// made in a private mktemp -d directory (never /.cache) and removed when
// the command ends, so no copy is left behind per call.
func TestLauncherNoHomeUsesTemporaryCopy(t *testing.T) {
	for _, m := range launcherModes(t) {
		t.Run(m.name, func(t *testing.T) {
			_, tmp, run := nobodyTree(t, m)
			for _, env := range [][]string{nil, {"HOME="}, {"HOME=relative", "XDG_CACHE_HOME=also-relative"}} {
				out, code := run(env...)
				if code != 7 || !strings.HasPrefix(out, "ran="+tmp+"/procedures.") {
					t.Errorf("%q: exit %d, stdout %q; want the binary's 7 from a copy under %s", env, code, out, tmp)
				}
				if left := entries(t, tmp); len(left) != 0 {
					t.Errorf("%q: copies left in TMPDIR: %q", env, left)
				}
			}
			if _, err := os.Stat("/.cache/procedures"); err == nil {
				t.Errorf("/.cache/procedures exists")
			}
		})
	}
}

// The user's own cache keeps one copy and reuses it.
func TestLauncherReusesCachedCopy(t *testing.T) {
	for _, m := range launcherModes(t) {
		t.Run(m.name, func(t *testing.T) {
			root, tmp, run := nobodyTree(t, m)
			home := filepath.Join(root, "home")
			os.Mkdir(home, 0o755)
			os.Chown(home, 65534, 65534)
			copy := filepath.Join(home, ".cache", "procedures", "linux-amd64", "procedures")
			for i := 0; i < 2; i++ {
				out, code := run("HOME=" + home)
				if code != 7 || out != "ran="+copy+"\n" {
					t.Fatalf("run %d: exit %d, stdout %q; want 7 from %s", i, code, out, copy)
				}
			}
			if left := entries(t, tmp); len(left) != 0 {
				t.Errorf("copies left in TMPDIR: %q", left)
			}
			if left := entries(t, filepath.Dir(copy)); len(left) != 1 {
				t.Errorf("cache holds %q, want the one copy", left)
			}
		})
	}
}

// A cache another user owns, or may write, is never run from: a planted
// copy identical to the bundle's (so cmp passes) could be swapped after the
// check. The launcher falls back to a private temporary copy; in a cache
// directory the user owns it replaces the untrusted copy with its own.
func TestLauncherDistrustsSharedCache(t *testing.T) {
	for _, m := range launcherModes(t) {
		t.Run(m.name, func(t *testing.T) {
			root, tmp, run := nobodyTree(t, m)
			bin := filepath.Join(root, "bin", "linux-amd64", "procedures")
			data, _ := os.ReadFile(bin)
			for _, tc := range []struct {
				name              string
				dirOwner, dirMode int
				fileOwner         int
				fileMode          os.FileMode
				replaced          bool
			}{
				{"another user's cache", 0, 0o777, 0, 0o777, false},
				{"another user's copy in the user's cache", 65534, 0o755, 0, 0o755, true},
				{"a group-writable copy", 65534, 0o755, 65534, 0o775, true},
				{"an other-writable cache directory", 65534, 0o757, 65534, 0o700, false},
			} {
				shared := filepath.Join(root, "shared-"+strings.ReplaceAll(tc.name, " ", "-"))
				d := filepath.Join(shared, "procedures", "linux-amd64")
				if err := os.MkdirAll(d, 0o777); err != nil {
					t.Fatal(err)
				}
				os.Chmod(shared, 0o777)
				for _, dd := range []string{filepath.Dir(d), d} {
					os.Chown(dd, tc.dirOwner, tc.dirOwner)
					os.Chmod(dd, os.FileMode(tc.dirMode))
				}
				planted := filepath.Join(d, "procedures")
				os.WriteFile(planted, data, tc.fileMode)
				os.Chmod(planted, tc.fileMode)
				os.Chown(planted, tc.fileOwner, tc.fileOwner)
				out, code := run("XDG_CACHE_HOME="+shared, "HOME=/nonexistent")
				if tc.replaced {
					fi, err := os.Stat(planted)
					if code != 7 || out != "ran="+planted+"\n" || err != nil || fi.Mode().Perm() != 0o700 || fi.Sys().(*syscall.Stat_t).Uid != 65534 {
						t.Errorf("%s: exit %d, stdout %q, copy %v %v; want 7 from the user's own 0700 copy", tc.name, code, out, fi.Mode(), err)
					}
					continue
				}
				if code != 7 || !strings.HasPrefix(out, "ran="+tmp+"/procedures.") {
					t.Errorf("%s: exit %d, stdout %q; want 7 from a private copy under %s", tc.name, code, out, tmp)
				}
			}
		})
	}
}

// markPlatforms replaces each platform's stand-in with one that prints
// ran=<platform> and exits 7, and the fake uname with one that also leaves
// a mark, so a test sees which binary ran and whether uname was asked.
func markPlatforms(t *testing.T, root, sysMach string, platforms ...Platform) (unameRan func() bool) {
	t.Helper()
	for _, p := range platforms {
		script := "#!/bin/sh\necho ran=" + p.String() + "\nexit 7\n"
		if err := os.WriteFile(filepath.Join(root, "bin", p.String(), p.Exe()), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mark := filepath.Join(root, "uname-ran")
	uname := "#!/bin/sh\necho >>'" + mark + "'\necho '" + sysMach + "'\n"
	if err := os.WriteFile(filepath.Join(root, "fakebin", "uname"), []byte(uname), 0o755); err != nil {
		t.Fatal(err)
	}
	return func() bool {
		_, err := os.Stat(mark)
		os.Remove(mark)
		return err == nil
	}
}

// On Linux the launcher takes the platform from the kernel's own answer in
// /proc and never runs uname (a fork per hook call). Here uname, if run,
// leaves a mark and names a platform whose binary would print otherwise.
func TestLauncherAsksTheKernelNotUname(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads Linux's /proc")
	}
	ostype, err1 := os.ReadFile(procKernel + "ostype")
	arch, err2 := os.ReadFile(procKernel + "arch")
	if err1 != nil || err2 != nil {
		t.Skipf("this kernel does not answer in %s: %v %v", procKernel, err1, err2)
	}
	want := map[string]Platform{"Linux\nx86_64\n": {"linux", "amd64"}, "Linux\naarch64\n": {"linux", "arm64"}}[string(ostype)+string(arch)]
	if want != Host() {
		t.Skipf("%s says %q %q: not this binary's platform %s (an emulated one?)", procKernel, ostype, arch, Host())
	}
	root, env := launcherProcTree(t, "", "Darwin arm64", Platforms...)
	unameRan := markPlatforms(t, root, "Darwin arm64", Platforms...)
	for _, m := range launcherModes(t) {
		out, errOut, code := runLauncherAs(t, m, root, env, "", "turn-state-reset")
		if out != "ran="+want.String()+"\n" || errOut != "" || code != 7 {
			t.Errorf("%s: stdout %q stderr %q exit %d; want ran=%s, exit 7", m.name, out, errOut, code, want)
		}
		if unameRan() {
			t.Errorf("%s: uname was run", m.name)
		}
	}
}

// The kernel's answer is taken only when it is one of the two a Linux
// binary is built for and that binary is in the bundle; any other answer,
// a missing or unterminated file, or a missing binary asks uname as before,
// so a bogus /proc cannot pick a wrong binary.
func TestLauncherKernelAnswerGuarded(t *testing.T) {
	for _, tc := range []struct {
		name          string
		ostype, arch  string // "-": the file is missing
		sysMach       string // uname's answer
		platforms     []Platform
		want          string // the platform run, or the stderr line
		wantUnameRuns bool
	}{
		{"linux x86_64", "Linux\n", "x86_64\n", "Darwin arm64", Platforms, "ran=linux-amd64", false},
		{"linux aarch64", "Linux\n", "aarch64\n", "Darwin arm64", Platforms, "ran=linux-arm64", false},
		{"no /proc", "-", "-", "Darwin arm64", Platforms, "ran=darwin-arm64", true},
		{"a kernel without kernel/arch", "Linux\n", "-", "Linux aarch64", Platforms, "ran=linux-arm64", true},
		{"another machine", "Linux\n", "mips\n", "Darwin arm64", Platforms, "ran=darwin-arm64", true},
		{"big-endian arm", "Linux\n", "aarch64_be\n", "Darwin arm64", Platforms, "ran=darwin-arm64", true},
		{"a name the kernel never gives", "Linux\n", "amd64\n", "Darwin arm64", Platforms, "ran=darwin-arm64", true},
		{"another system", "Darwin\n", "arm64\n", "Linux aarch64", Platforms, "ran=linux-arm64", true},
		{"lower case", "linux\n", "x86_64\n", "Darwin arm64", Platforms, "ran=darwin-arm64", true},
		{"trailing words", "Linux\n", "x86_64 extra\n", "Darwin arm64", Platforms, "ran=darwin-arm64", true},
		{"a path", "Linux\n", "../../x86_64\n", "Darwin arm64", Platforms, "ran=darwin-arm64", true},
		{"unterminated", "Linux\n", "x86_64", "Darwin arm64", Platforms, "ran=darwin-arm64", true},
		{"empty", "\n", "\n", "Darwin arm64", Platforms, "ran=darwin-arm64", true},
		// An emulated container (qemu-user): the host kernel's platform
		// is not in the bundle; uname names the emulated one, which is.
		{"no binary for the kernel's answer", "Linux\n", "x86_64\n", "Linux aarch64", []Platform{{"linux", "arm64"}}, "ran=linux-arm64", true},
		{"neither answer has a binary", "Linux\n", "aarch64\n", "Plan9 mips", []Platform{{"linux", "amd64"}},
			"procedures: no binary for this platform (Plan9 mips); this bundle carries: linux-amd64", true},
	} {
		root, env := launcherTree(t, tc.sysMach, tc.platforms...)
		unameRan := markPlatforms(t, root, tc.sysMach, tc.platforms...)
		for name, content := range map[string]string{"ostype": tc.ostype, "arch": tc.arch} {
			if content == "-" {
				continue
			}
			if err := os.WriteFile(filepath.Join(root, "proc", name), []byte(content), 0o444); err != nil {
				t.Fatal(err)
			}
		}
		for _, m := range launcherModes(t) {
			out, errOut, code := runLauncherAs(t, m, root, env, "", "am-i-done-gate")
			got, wantCode := out, 7
			if !strings.HasPrefix(tc.want, "ran=") {
				got, wantCode = errOut, 0
			}
			if got != tc.want+"\n" || code != wantCode {
				t.Errorf("%s, %s: stdout %q stderr %q exit %d; want %q, exit %d", tc.name, m.name, out, errOut, code, tc.want, wantCode)
			}
			if ran := unameRan(); ran != tc.wantUnameRuns {
				t.Errorf("%s, %s: uname run %v, want %v", tc.name, m.name, ran, tc.wantUnameRuns)
			}
		}
	}
}

// Sourced without its own path in $1 (". launcher" alone, or after
// "set --"), the launcher says so and exits 2; it never takes the current
// directory for its own, even one holding a platform binary. (zsh, which
// sets $0 to the file it sources, runs it as sh <launcher> would.)
func TestLauncherSourcedWithoutItsPath(t *testing.T) {
	root, env := launcherTree(t, "Linux x86_64", Platform{"linux", "amd64"})
	launcher := filepath.Join(root, "bin", "procedures")
	want := "procedures: no binary: sourced without this script's path in $1 (set -- <plugin>/bin/procedures <command>; . \"$1\")\n"
	for _, sh := range launcherShells(t) {
		if sh[0] == "zsh" {
			continue
		}
		for _, line := range []string{". " + shQuote(launcher), "set --; . " + shQuote(launcher)} {
			cmd := exec.Command(sh[0], append(sh[1:], "-c", line)...)
			cmd.Env, cmd.Dir = env, filepath.Join(root, "bin")
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			err := cmd.Run()
			ee, _ := err.(*exec.ExitError)
			if ee == nil || ee.ExitCode() != 2 || out.String() != "" || errb.String() != want {
				t.Errorf("%s -c %q: %v, stdout %q, stderr %q; want exit 2 and %q", sh, line, err, out.String(), errb.String(), want)
			}
		}
	}
}

// Sourced, the launcher ends the shell that sourced it, by exec or exit,
// on every path: nothing after the sourcing line runs, whatever the
// shell's $0 (sh -c sets it to its own name, or to the one given).
func TestLauncherSourcedEndsTheShell(t *testing.T) {
	ok, okEnv := launcherTree(t, "Linux x86_64", Platform{"linux", "amd64"})
	bad, badEnv := launcherTree(t, "Plan9 mips", Platform{"linux", "amd64"})
	for _, sh := range launcherShells(t) {
		for _, zero := range []string{"", "/bin/sh", "-sh"} {
			for _, tc := range []struct {
				root string
				env  []string
				args []string
				code int
			}{
				{ok, okEnv, []string{"how-do-i-gate"}, 7},   // exec
				{bad, badEnv, []string{"how-do-i-gate"}, 0}, // fail, a hook
				{bad, badEnv, []string{"query-records"}, 2}, // fail, not a hook
				{ok, okEnv, nil, 2},                         // sourced without its path
			} {
				line := sourceLine(filepath.Join(tc.root, "bin", "procedures"), tc.args) + "; echo returned"
				if tc.args == nil {
					line = ". " + shQuote(filepath.Join(tc.root, "bin", "procedures")) + "; echo returned"
					if sh[0] == "zsh" {
						continue // zsh sets $0 to the file: it runs the binary
					}
				}
				argv := append(append([]string(nil), sh[1:]...), "-c", line)
				if zero != "" {
					argv = append(argv, zero)
				}
				cmd := exec.Command(sh[0], argv...)
				cmd.Env = tc.env
				out, err := cmd.Output()
				code := 0
				if ee, ok := err.(*exec.ExitError); ok {
					code = ee.ExitCode()
				}
				if strings.Contains(string(out), "returned") || code != tc.code {
					t.Errorf("%s -c %q %s: exit %d, stdout %q; want exit %d and nothing after the launcher", sh, line, zero, code, out, tc.code)
				}
			}
		}
	}
}

// A hook whose platform binary is missing releases (exit 0) loudly: stderr
// names the file looked for and the platforms the bundle really carries
// (never the missing one), and one fail-open row (binary-unrunnable, the
// hook as gate) is appended. Another command exits 2 and writes no row. A
// FIFO as the log is left alone.
func TestLauncherMissingBinaryIsLoud(t *testing.T) {
	root, env := launcherTree(t, "Linux x86_64", Platform{"linux", "amd64"}, Platform{"darwin", "arm64"})
	missing := filepath.Join(root, "bin", "linux-amd64", "procedures")
	os.Remove(missing)
	log := filepath.Join(root, "failopen.jsonl")
	env = append(env, "GATE_FAILOPEN_LOG="+log)
	rows := 0
	for _, m := range launcherModes(t) {
		_, errOut, code := runLauncherAs(t, m, root, env, "", "how-do-i-gate")
		want := "procedures: no binary for this platform (Linux x86_64): " + missing + " is missing; this bundle carries: darwin-arm64\n"
		if code != 0 || errOut != want {
			t.Errorf("%s: stderr %q exit %d; want %q exit 0", m.name, errOut, code, want)
		}
		rows++
		data, _ := os.ReadFile(log)
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		last := lines[len(lines)-1]
		if len(lines) != rows || !strings.HasSuffix(last, `","gate":"how-do-i-gate","why":"binary-unrunnable","session_id":""}`) || !strings.HasPrefix(last, `{"ts":"20`) {
			t.Errorf("%s: %d rows, last %q", m.name, len(lines), last)
		}
		if _, _, code := runLauncherAs(t, m, root, env, "", "query-records"); code != 2 {
			t.Errorf("%s: query-records exit %d, want 2", m.name, code)
		}
		if data2, _ := os.ReadFile(log); len(data2) != len(data) {
			t.Errorf("%s: query-records wrote a fail-open row", m.name)
		}
	}
	fifo := filepath.Join(root, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	m := launcherModes(t)[0]
	if _, _, code := runLauncherAs(t, m, root, append(env, "GATE_FAILOPEN_LOG="+fifo), "", "am-i-done-gate"); code != 0 {
		t.Errorf("with a FIFO log: exit %d", code)
	}
}
