package bundle

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/wiring"
)

// copyFixture copies the upstream-shaped plugin (testdata/upstream) to a
// new directory and returns it.
func copyFixture(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "procedures")
	if out, err := exec.Command("cp", "-a", filepath.Join("testdata", "upstream"), dir).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v: %s", err, out)
	}
	return dir
}

// Bundling into the bash original's plugin directory wires each of the six
// hooks once, ours; turns the four scripts its skills call into shims that
// run the bundled launcher; keeps the operator's switch texts, skills and
// other files; and names every replacement on stderr.
func TestWriteSwapsTheBashOriginal(t *testing.T) {
	dir := copyFixture(t)
	var log bytes.Buffer
	if err := Write(Options{Dir: dir, Platforms: []Platform{Host()}, Version: "1.0.0", Binary: fakeBinary(t), Log: &log}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "hooks", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Hooks map[string][]struct {
			Matcher string
			Hooks   []struct{ Command string }
		}
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for ev, groups := range doc.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				got = append(got, ev+"|"+g.Matcher+"|"+h.Command)
			}
		}
	}
	if len(got) != len(wiring.Hooks()) {
		t.Errorf("%d hooks wired, want %d:\n%s", len(got), len(wiring.Hooks()), strings.Join(got, "\n"))
	}
	for _, h := range wiring.Hooks() {
		want := h.Event + "|" + h.Matcher + "|" + HookCommand(h.Command)
		if n := strings.Count("\n"+strings.Join(got, "\n")+"\n", "\n"+want+"\n"); n != 1 {
			t.Errorf("%s wired %d times, want once", want, n)
		}
	}
	if strings.Contains(string(data), "bash ") {
		t.Errorf("a bash line is left:\n%s", data)
	}
	for _, s := range Shims {
		b, err := os.ReadFile(filepath.Join(dir, s.Script))
		if err != nil || !IsShim(b) || !strings.Contains(string(b), `/../bin/procedures" `+s.Command+` "$@"`) {
			t.Errorf("%s is not the shim for %s: %v\n%s", s.Script, s.Command, err, b)
		}
		if !strings.Contains(log.String(), "replaced the bash original's "+s.Script) {
			t.Errorf("the log does not name %s:\n%s", s.Script, log.String())
		}
	}
	for _, ev := range []string{"UserPromptSubmit: bash ${CLAUDE_PLUGIN_ROOT}/hooks/turn-state-reset.sh", "Stop: bash ${CLAUDE_PLUGIN_ROOT}/hooks/am-i-done-gate.sh"} {
		if !strings.Contains(log.String(), "replaced the bash original's hook "+ev) {
			t.Errorf("the log does not name %s:\n%s", ev, log.String())
		}
	}
	plugin, _ := os.ReadFile(filepath.Join(dir, ".claude-plugin", "plugin.json"))
	for _, want := range []string{`"version": "0.7.1"`, `"title": "How-do-i gate (fixture)"`, `"name": "fixture"`} {
		if !strings.Contains(string(plugin), want) {
			t.Errorf("plugin.json lost %s:\n%s", want, plugin)
		}
	}
	for _, keep := range []string{"skills/how-do-i/SKILL.md", "agents/procedure-scout.md", "hooks/how-do-i-gate.sh", "README.fixture.md"} {
		if _, err := os.Stat(filepath.Join(dir, keep)); err != nil {
			t.Errorf("%s not kept: %v", keep, err)
		}
	}
	// Again: nothing left to replace, the shims stay shims.
	log.Reset()
	if err := Write(Options{Dir: dir, Platforms: []Platform{Host()}, Version: "1.0.0", Binary: fakeBinary(t), Log: &log}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(log.String(), "replaced") {
		t.Errorf("a second bundle replaced something:\n%s", log.String())
	}
	again, _ := os.ReadFile(filepath.Join(dir, "hooks", "hooks.json"))
	if !bytes.Equal(again, data) {
		t.Errorf("hooks.json changed on a second bundle:\n%s", again)
	}
}

// A shim runs the launcher two directories up with its command and
// arguments, as bash and as sh, from any working directory.
func TestShimRunsTheLauncher(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "bin"), 0o755)
	os.MkdirAll(filepath.Join(dir, "scripts"), 0o755)
	os.WriteFile(filepath.Join(dir, "bin", "procedures"), []byte(`printf '%s|' "$0" "$@"`), 0o644)
	shim := filepath.Join(dir, "scripts", "query-records.sh")
	os.WriteFile(shim, []byte(ShimText("query-records")), 0o755)
	for _, sh := range []string{"sh", "bash"} {
		if _, err := exec.LookPath(sh); err != nil {
			continue
		}
		cmd := exec.Command(sh, shim, "--keyword", "a b")
		cmd.Dir = t.TempDir()
		out, err := cmd.Output()
		want := dir + "/scripts/../bin/procedures|query-records|--keyword|a b|"
		if err != nil || string(out) != want {
			t.Errorf("%s %s: %v %q, want %q", sh, shim, err, out, want)
		}
	}
}

// The bash original's hook lines are recognised in the spellings a plugin
// may use; anything else is not theirs.
func TestUpstreamHook(t *testing.T) {
	for line, want := range map[string]string{
		"bash ${CLAUDE_PLUGIN_ROOT}/hooks/how-do-i-gate.sh":    "how-do-i-gate",
		`bash "${CLAUDE_PLUGIN_ROOT}/hooks/am-i-done-gate.sh"`: "am-i-done-gate",
		"sh $CLAUDE_PLUGIN_ROOT/hooks/digest-record.sh":        "digest-record",
		"bash ${CLAUDE_PLUGIN_ROOT}/hooks/my-own.sh":           "",
		"bash ${CLAUDE_PLUGIN_ROOT}/hooks/how-do-i-gate.sh -x": "",
		"zsh ${CLAUDE_PLUGIN_ROOT}/hooks/how-do-i-gate.sh":     "",
		`bash "${CLAUDE_PLUGIN_ROOT}/hooks/how-do-i-gate.sh`:   "",
		"bash ${CLAUDE_PLUGIN_ROOT}/scripts/query-records.sh":  "",
		"bash /elsewhere/hooks/how-do-i-gate.sh":               "",
	} {
		got, ok := UpstreamHook(line)
		if got != want || ok != (want != "") {
			t.Errorf("UpstreamHook(%q) = %q, %v; want %q", line, got, ok, want)
		}
	}
}

// A directory the bundle writes into that is a symlink out of the bundle's
// directory is refused, named, and nothing is written through it; a
// symlink that stays inside is followed.
func TestWriteRefusesSymlinksOut(t *testing.T) {
	for _, sub := range []string{"bin", "hooks", ".claude-plugin", "scripts", filepath.Join("bin", Host().String())} {
		dir := copyFixture(t)
		outside := t.TempDir()
		os.MkdirAll(filepath.Dir(filepath.Join(dir, sub)), 0o755)
		os.RemoveAll(filepath.Join(dir, sub))
		if err := os.Symlink(outside, filepath.Join(dir, sub)); err != nil {
			t.Fatal(err)
		}
		err := Write(Options{Dir: dir, Platforms: []Platform{Host()}, Version: "1", Binary: fakeBinary(t)})
		if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, sub)+" leads out of") {
			t.Errorf("%s: err %v, want a refusal naming it", sub, err)
		}
		if ents, _ := os.ReadDir(outside); len(ents) > 0 {
			t.Errorf("%s: wrote %d entries outside", sub, len(ents))
		}
	}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "real-hooks"), 0o755)
	os.Symlink("real-hooks", filepath.Join(dir, "hooks"))
	if err := Write(Options{Dir: dir, Platforms: []Platform{Host()}, Version: "1", Binary: fakeBinary(t)}); err != nil {
		t.Errorf("a symlink inside the directory refused: %v", err)
	}
}

// A new bundle carries the LICENSE (the repository's, byte for byte), a
// README.md and an icon; an operator's own are kept.
func TestWriteExtras(t *testing.T) {
	root, err := os.ReadFile(filepath.Join("..", "..", "LICENSE"))
	if err != nil || string(root) != License {
		t.Fatalf("License differs from the repository's LICENSE (%v)", err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("mine\n"), 0o644)
	if err := Write(Options{Dir: dir, Platforms: []Platform{Host()}, Version: "1", Binary: fakeBinary(t)}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "LICENSE")); string(b) != License {
		t.Errorf("LICENSE not written")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "README.md")); string(b) != "mine\n" {
		t.Errorf("the operator's README.md replaced: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".claude-plugin", "icon.png")); !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Errorf("no icon")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".claude-plugin", "plugin.json")); !strings.Contains(string(b), `"license": "MIT"`) {
		t.Errorf("no license in plugin.json:\n%s", b)
	}
	if n := len(strings.Fields(Readme)); n < 40 {
		t.Errorf("the README has %d words; the plugin directory wants 40", n)
	}
}

// Bundling again with -version moves an existing plugin.json's version;
// without it, a changed build keeps the version and says that claude
// plugin update will not see it.
func TestWriteVersion(t *testing.T) {
	dir := copyFixture(t)
	var log bytes.Buffer
	if err := Write(Options{Dir: dir, Platforms: []Platform{Host()}, Version: "1.0.0", Binary: fakeBinary(t), Log: &log}); err != nil {
		t.Fatal(err)
	}
	plugin := filepath.Join(dir, ".claude-plugin", "plugin.json")
	if b, _ := os.ReadFile(plugin); !strings.Contains(string(b), `"version": "0.7.1"`) || !strings.Contains(log.String(), "claude plugin update sees this new build only when the version moves") {
		t.Errorf("version not kept, or not said:\n%s\n%s", b, log.String())
	}
	log.Reset()
	if err := Write(Options{Dir: dir, Platforms: []Platform{Host()}, Version: "1.0.1", SetVersion: true, Binary: fakeBinary(t), Log: &log}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(plugin); !strings.Contains(string(b), `"version": "1.0.1"`) {
		t.Errorf("-version not set:\n%s", b)
	}
	if strings.Contains(log.String(), "only when the version moves") {
		t.Errorf("the note said with -version:\n%s", log.String())
	}
}
