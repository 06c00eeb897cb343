package doctor

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/bundle"
	"github.com/procedures-go/procedures/internal/wiring"
)

// execFormHooks is docs/bundle.md's no-shell hooks.json: each hook a binary of
// its own name in bin/, run with "args": [] (no shell).
func execFormHooks() string {
	type handler struct {
		Type    string   `json:"type"`
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	type group struct {
		Matcher string    `json:"matcher,omitempty"`
		Hooks   []handler `json:"hooks"`
	}
	doc := map[string][]group{}
	for _, h := range wiring.Hooks() {
		exe := h.Command
		if runtime.GOOS == "windows" {
			exe += ".exe"
		}
		doc[h.Event] = append(doc[h.Event], group{h.Matcher, []handler{{"command", "${CLAUDE_PLUGIN_ROOT}/bin/" + exe, []string{}}}})
	}
	out, _ := json.Marshal(map[string]any{"hooks": doc})
	return string(out)
}

// docs/bundle.md's exec form (binaries hard-linked into bin/ under each hook's
// name, "args": []) is as healthy as the launcher form.
func TestExecFormIsHealthy(t *testing.T) {
	w := newWorld(t)
	h := bundle.Host()
	for _, hk := range wiring.Hooks() {
		exe := hk.Command
		if runtime.GOOS == "windows" {
			exe += ".exe"
		}
		if err := os.Link(filepath.Join(w.plugin, "bin", h.String(), h.Exe()), filepath.Join(w.plugin, "bin", exe)); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, w.plugin, "hooks/hooks.json", execFormHooks(), 0o644)
	r := Run(w.options())
	if r.Failed() || r.Count(Warn) > 0 {
		t.Fatalf("the exec form is not all ok:\n%s", dump(t, r))
	}
	if fs := findings(r, SectionWiring, "enforce-frontmatter"); len(fs) != 1 || !strings.Contains(fs[0].Reason, "runs bin/enforce-frontmatter") {
		t.Errorf("%v", fs)
	}
	// Without its exec bit an exec-form binary does not run at all: no
	// launcher restores it.
	if runtime.GOOS != "windows" {
		os.Chmod(filepath.Join(w.plugin, "bin", "am-i-done-gate"), 0o644)
		fs := findings(Run(w.options()), SectionWiring, "bin/am-i-done-gate")
		if len(fs) < 1 || fs[0].Status != Fail || !strings.Contains(fs[0].Reason, "(hooks: am-i-done-gate)") || !strings.Contains(fs[0].Fix, "chmod +x ") {
			t.Errorf("exec bit lost: %v", fs)
		}
	}
}

// A hook command is read at bounded cost: a deeply nested 900 KB command
// (which the shell parser would turn into a tree of about 1 GB) is refused
// by its length, before it is parsed.
func TestParseHookCommandBounded(t *testing.T) {
	nested := strings.Repeat(`"$(`, 300_000) + strings.Repeat(`)"`, 300_000)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := parseHookCommand("sh "+nested, "/p")
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "bytes long") {
		t.Errorf("err %v, want the length refused", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 16<<20 {
		t.Errorf("parsing allocated %d bytes", n)
	}
	// A long command at the cap still parses.
	long := `sh "${CLAUDE_PLUGIN_ROOT}/bin/procedures" ` + strings.Repeat("x", MaxHookCommand-len(`sh "${CLAUDE_PLUGIN_ROOT}/bin/procedures" `))
	if _, err := parseHookCommand(long, "/p"); err != nil {
		t.Errorf("a %d-byte command: %v", len(long), err)
	}
}

// A platform binary of another build than the host's (a partial re-bundle
// left it) is a warning naming both builds; one of the same build is not.
func TestPlatformVersionsDiffer(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skip("no go command to find another Go build")
	}
	gofmt := filepath.Join(strings.TrimSpace(string(goroot)), "bin", "gofmt")
	if runtime.GOOS == "windows" {
		gofmt += ".exe"
	}
	if _, err := os.Stat(gofmt); err != nil {
		t.Skip("no gofmt to stand in for another build")
	}
	w := newWorld(t)
	h := bundle.Host()
	copyFile := func(from string, p bundle.Platform) string {
		data, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		return writeFile(t, w.plugin, "bin/"+p.String()+"/"+p.Exe(), string(data), 0o755)
	}
	copyFile(self, h)
	var same, other bundle.Platform
	for _, p := range bundle.Platforms {
		if p != h && same == (bundle.Platform{}) {
			same = p
		} else if p != h && other == (bundle.Platform{}) {
			other = p
		}
	}
	copyFile(self, same)
	copyFile(gofmt, other)
	r := Run(w.options())
	if n := r.Count(Warn); n != 1 {
		t.Errorf("%d warnings, want 1:\n%s", n, dump(t, r))
	}
	fs := findings(r, SectionWiring, "bin/"+other.String()+"/")
	if len(fs) != 1 || fs[0].Status != Warn || !strings.Contains(fs[0].Reason, ", but this platform's bin/"+h.String()+"/"+h.Exe()+" is github.com/procedures-go/procedures ") ||
		!strings.Contains(fs[0].Reason, "a "+other.String()+" machine runs another version") {
		t.Errorf("%s", dump(t, r))
	}
}
