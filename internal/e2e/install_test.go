package e2e

import (
	"bufio"
	"encoding/json"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/bundle"
)

// fakeGo stands in for the go command in the install tests, so no test
// builds six platforms: `go run ./cmd/procedures ARGS` runs the suite's
// host binary ($E2E_PROCEDURES) with ARGS, and `go build ... -o OUT ...`
// (what bundle runs for each platform) copies it to OUT. Until the bundle
// carries the plugin's own skills, a bundle it runs gets two stand-in
// skills where it has none, so the gates find theirs. Anything else fails.
const fakeGo = `#!/bin/sh
case $1 in
run)
	shift
	[ "$1" = ./cmd/procedures ] || { echo "fake go: run: only ./cmd/procedures: $*" >&2; exit 2; }
	shift
	"$E2E_PROCEDURES" "$@" || exit
	out=
	while [ $# -gt 0 ]; do
		[ "$1" = -o ] && out=$2
		shift
	done
	[ -n "$out" ] || exit 0
	for s in how-do-i am-i-done; do
		[ -f "$out/skills/$s/SKILL.md" ] && continue
		mkdir -p "$out/skills/$s" &&
			printf -- '---\nname: %s\ndescription: stand-in skill of the install test.\n---\nStand-in.\n' "$s" >"$out/skills/$s/SKILL.md"
	done
	exit 0
	;;
build)
	while [ $# -gt 0 ]; do
		[ "$1" = -o ] && exec cp "$E2E_PROCEDURES" "$2"
		shift
	done
	;;
esac
echo "fake go: unsupported: go $*" >&2
exit 2
`

// installBox is a sandbox for the install tests: a HOME of its own, a PATH
// whose go is fakeGo and whose claude is the pinned CLI.
type installBox struct {
	t       *testing.T
	dir     string
	home    string
	env     []string
	claude  string
	hostExe string
}

func newInstallBox(t *testing.T) *installBox {
	t.Helper()
	need(t)
	base, _ := baseBundle()
	claude, _ := claudeBin()
	dir, err := os.MkdirTemp(workDir, strings.ReplaceAll(t.Name(), "/", "_")+" ")
	if err != nil {
		t.Fatal(err)
	}
	b := &installBox{t: t, dir: dir, home: filepath.Join(dir, "home"), claude: claude,
		hostExe: filepath.Join(base, "bin", bundle.Host().String(), bundle.Host().Exe())}
	fake := filepath.Join(dir, "fakebin")
	for _, d := range []string{fake, b.home, filepath.Join(dir, "kb"), filepath.Join(dir, "turn-state")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.Chmod(filepath.Join(dir, "turn-state"), 0o700)
	if err := os.WriteFile(filepath.Join(fake, "go"), []byte(fakeGo), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(fake, "claude"), []byte("#!/bin/sh\nexec \"$E2E_CLAUDE\" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	b.env = []string{
		"PATH=" + fake + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + b.home,
		"USER=root",
		"TMPDIR=" + os.TempDir(),
		"E2E_PROCEDURES=" + b.hostExe,
		"E2E_CLAUDE=" + claude,
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL=1",
		"TURN_STATE_DIR=" + filepath.Join(dir, "turn-state"),
		"GATE_FAILOPEN_LOG=" + filepath.Join(dir, "gate-failopen.jsonl"),
		"GATE_ESCAPE_LOG=" + filepath.Join(dir, "gate-escape.jsonl"),
		"CODEX_ROOT=" + filepath.Join(dir, "kb"),
	}
	return b
}

// run runs argv in dir with the box's environment and returns its
// combined output and exit code.
func (b *installBox) run(dir string, argv ...string) (string, int) {
	b.t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = b.env
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		b.t.Fatalf("%v: %v", argv, err)
	}
	return string(out), code
}

// must runs argv and fails the test unless it exits 0.
func (b *installBox) must(dir string, argv ...string) string {
	b.t.Helper()
	out, code := b.run(dir, argv...)
	if code != 0 {
		b.t.Fatalf("%v in %s: exit %d\n%s", argv, dir, code, out)
	}
	return out
}

// readmeBlock is the fenced block after the marker line
// <!-- snippet:NAME --> in the repository's README.md.
func readmeBlock(t *testing.T, name string) string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "<!-- snippet:"+name+" -->\n")
	if !ok {
		t.Fatalf("README.md has no <!-- snippet:%s --> marker", name)
	}
	fence, rest, _ := strings.Cut(after, "\n")
	if !strings.HasPrefix(fence, "```") {
		t.Fatalf("the marker %s is not followed by a fenced block", name)
	}
	body, _, ok := strings.Cut(rest, "\n```\n")
	if !ok {
		t.Fatalf("the block after %s is not closed", name)
	}
	return body + "\n"
}

// clone makes a fresh clone of this repository (its committed tree) in the
// box.
func (b *installBox) clone() string {
	b.t.Helper()
	top, err := exec.Command("git", "-C", "../..", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		b.t.Skipf("not a git checkout: %v", err)
	}
	dst := filepath.Join(b.dir, "clone dir")
	b.must(b.dir, "git", "clone", "-q", "--no-hardlinks", strings.TrimSpace(string(top)), dst)
	return dst
}

// doctorFinding is one WARN or FAIL line of doctor's text and its fix.
type doctorFinding struct{ status, line, fix string }

// doctor runs `procedures doctor` with no argument from the box and
// returns its output, exit code and Wiring findings that are not ok.
func (b *installBox) doctor() (string, int, []doctorFinding) {
	b.t.Helper()
	out, code := b.run(b.dir, b.hostExe, "doctor")
	var fs []doctorFinding
	section := ""
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		l := sc.Text()
		switch {
		case l != "" && !strings.HasPrefix(l, " ") && !strings.Contains(l, ":"):
			section = l
		case section != "Wiring":
		case strings.HasPrefix(l, "  FAIL  "), strings.HasPrefix(l, "  WARN  "):
			fs = append(fs, doctorFinding{status: l[2:6], line: l[8:]})
		case strings.HasPrefix(l, "        fix: ") && len(fs) > 0:
			fs[len(fs)-1].fix = strings.TrimPrefix(l, "        fix: ")
		}
	}
	return out, code, fs
}

// TestE2EInstallFromClone: the README's install-from-clone block, run
// verbatim from a fresh clone's root with claude on PATH, leaves the
// plugin installed and enabled; claude plugin validate reports nothing at
// all; procedures doctor with no argument finds both copies and reports 0
// fail. Then each breakage an operator meets gives a finding whose printed
// fix, run as printed from elsewhere, makes doctor report 0 fail and 0
// warn in Wiring again.
func TestE2EInstallFromClone(t *testing.T) {
	b := newInstallBox(t)
	clone := b.clone()
	script := filepath.Join(b.dir, "install-local.sh")
	if err := os.WriteFile(script, []byte(readmeBlock(t, "install-local")), 0o644); err != nil {
		t.Fatal(err)
	}
	b.must(clone, "sh", "-e", script)

	installPath := func() string {
		t.Helper()
		var installed struct {
			Plugins map[string][]struct{ InstallPath, Version string }
		}
		data, _ := os.ReadFile(filepath.Join(b.home, ".claude", "plugins", "installed_plugins.json"))
		if err := json.Unmarshal(data, &installed); err != nil || len(installed.Plugins["procedures@procedures-go"]) != 1 {
			t.Fatalf("procedures@procedures-go is not installed (%v):\n%s", err, data)
		}
		return installed.Plugins["procedures@procedures-go"][0].InstallPath
	}
	installPath()
	var settings struct{ EnabledPlugins map[string]bool }
	data, _ := os.ReadFile(filepath.Join(b.home, ".claude", "settings.json"))
	if json.Unmarshal(data, &settings); !settings.EnabledPlugins["procedures@procedures-go"] {
		t.Errorf("the plugin is not enabled:\n%s", data)
	}

	// claude plugin validate, with the plugin directory's own profile and
	// warnings as errors, reports nothing.
	out, code := b.run(clone, b.claude, "plugin", "validate", "--json", "--profile", "directory", "--strict", "plugin")
	var v struct {
		Success  bool
		Manifest struct{ Errors, Warnings, Notes []any }
		Advice   []any
		Contents []any

		Directory struct{ Findings, Undecided []any }
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != 0 || !v.Success || len(v.Manifest.Errors)+len(v.Manifest.Warnings)+len(v.Advice)+len(v.Directory.Findings)+len(v.Directory.Undecided) > 0 {
		t.Errorf("claude plugin validate: exit %d (%v):\n%s", code, err, out)
	}

	src := filepath.Join(clone, "plugin")
	healthy := func(when string) {
		t.Helper()
		out, code, fs := b.doctor()
		if code != 0 || !strings.Contains(out, "\n0 fail, ") || len(fs) > 0 {
			t.Fatalf("%s: doctor exit %d, findings %v:\n%s", when, code, fs, out)
		}
		for _, dir := range []string{src, installPath()} {
			if !strings.Contains(out, "  OK    "+dir+": how-do-i-gate: ") {
				t.Fatalf("%s: doctor did not check %s:\n%s", when, dir, out)
			}
		}
	}
	healthy("installed")

	host := bundle.Host()
	for _, tc := range []struct {
		name, want string
		break_     func()
	}{
		{"a deleted platform binary", "no usable binary for this platform", func() {
			os.Remove(filepath.Join(src, "bin", host.String(), host.Exe()))
		}},
		{"a deleted binary of the installed copy", "no usable binary for this platform", func() {
			os.Remove(filepath.Join(installPath(), "bin", host.String(), host.Exe()))
		}},
		{"a lost exec bit", "has lost its exec bit", func() {
			os.Chmod(filepath.Join(src, "bin", host.String(), host.Exe()), 0o644)
		}},
		{"a broken hooks.json", "does not parse", func() {
			os.WriteFile(filepath.Join(src, "hooks", "hooks.json"), []byte("{\n  \"hooks\": ]\n"), 0o644)
		}},
		{"an upstream-wired hooks.json", "runs the bash original's hook scripts", func() {
			data, err := os.ReadFile(filepath.Join(upstreamFixture(), "hooks", "hooks.json"))
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(src, "hooks", "hooks.json"), data, 0o644)
		}},
		{"a stale version", "the copy is stale until the plugin is updated", func() {
			b.must(clone, "sh", "-c", "go run ./cmd/procedures bundle -o plugin -version 0.0.1-e2e")
		}},
	} {
		tc.break_()
		out, _, fs := b.doctor()
		var matched bool
		for _, f := range fs {
			if strings.Contains(f.line, tc.want) {
				matched = true
			}
		}
		if !matched {
			t.Fatalf("%s: no finding says %q:\n%s", tc.name, tc.want, out)
		}
		for _, f := range fs {
			if f.fix == "" {
				t.Fatalf("%s: a finding without a fix: %s", tc.name, f.line)
			}
			t.Logf("%s: %s %s\n  fix: %s", tc.name, f.status, f.line, f.fix)
			b.must(b.dir, "sh", "-c", f.fix)
		}
		healthy("after the fix for " + tc.name)
	}
}

// upstreamFixture is the upstream-shaped plugin of the bundle's tests.
func upstreamFixture() string {
	return filepath.Join("..", "bundle", "testdata", "upstream")
}

// TestE2EInstallFromRelease: a release made by scripts/release-branch (the
// branch release: the marketplace and the built plugin), served from a
// bare repository over git's smart HTTP on loopback in place of GitHub,
// installs with the README's install-from-GitHub block (its GitHub URL
// replaced by the local one) at the release's version, enabled, and
// doctor with no argument finds it and reports 0 fail.
func TestE2EInstallFromRelease(t *testing.T) {
	b := newInstallBox(t)
	b.env = append(b.env, "GIT_AUTHOR_NAME=e2e", "GIT_AUTHOR_EMAIL=e2e@example.com",
		"GIT_COMMITTER_NAME=e2e", "GIT_COMMITTER_EMAIL=e2e@example.com")
	clone := b.clone()
	printed := strings.Fields(b.must(clone, "sh", "scripts/release-branch", "1.2.3"))
	commit := printed[len(printed)-1] // the last line: the new commit
	files := b.must(clone, "git", "ls-tree", "-r", "--name-only", commit)
	for _, want := range []string{".claude-plugin/marketplace.json", "plugin/.claude-plugin/plugin.json", "plugin/bin/procedures", "plugin/hooks/hooks.json", "plugin/LICENSE",
		"plugin/bin/" + bundle.Host().String() + "/" + bundle.Host().Exe()} {
		if !strings.Contains("\n"+files, "\n"+want+"\n") {
			t.Errorf("the release tree has no %s:\n%s", want, files)
		}
	}
	if main := b.must(clone, "git", "ls-tree", "-r", "--name-only", "HEAD"); strings.Contains(main, "plugin/bin/") {
		t.Errorf("main holds the plugin's binaries")
	}
	served := filepath.Join(b.dir, "served")
	b.must(b.dir, "git", "clone", "-q", "--bare", clone, filepath.Join(served, "procedures.git"))
	gitExec, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(&cgi.Handler{
		Path: filepath.Join(strings.TrimSpace(string(gitExec)), "git-http-backend"),
		Env:  []string{"GIT_PROJECT_ROOT=" + served, "GIT_HTTP_EXPORT_ALL=1"},
	})
	defer srv.Close()
	block := readmeBlock(t, "install-github")
	const github = "https://github.com/procedures-go/procedures.git"
	if !strings.Contains(block, github+"#release") {
		t.Fatalf("the README's GitHub block does not name %s#release:\n%s", github, block)
	}
	script := filepath.Join(b.dir, "install-github.sh")
	if err := os.WriteFile(script, []byte(strings.ReplaceAll(block, github, srv.URL+"/procedures.git")), 0o644); err != nil {
		t.Fatal(err)
	}
	b.must(b.dir, "sh", "-e", script)
	data, _ := os.ReadFile(filepath.Join(b.home, ".claude", "plugins", "installed_plugins.json"))
	if !strings.Contains(string(data), `"version": "1.2.3"`) {
		t.Errorf("not installed at 1.2.3:\n%s", data)
	}
	if out, code, fs := b.doctor(); code != 0 || len(fs) > 0 || !strings.Contains(out, "installed: procedures@procedures-go 1.2.3 (installed copy, ") {
		t.Errorf("doctor: exit %d %v\n%s", code, fs, out)
	}
}
