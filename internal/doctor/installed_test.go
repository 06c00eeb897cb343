package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// installedWorld lays out what Claude Code 2.1.332 records after
// `claude plugin marketplace add <clone>` and `claude plugin install
// procedures@procedures-go`: the clone (a directory marketplace, its plugin
// in ./plugin), the copy in the plugin cache, installed_plugins.json and
// known_marketplaces.json as that version writes them.
func installedWorld(t *testing.T) (w *world, clone, cache string) {
	t.Helper()
	w = newWorld(t)
	clone = filepath.Join(w.root, "clone")
	writeFile(t, clone, "go.mod", "module github.com/procedures-go/procedures\n\ngo 1.26\n", 0o644)
	os.MkdirAll(filepath.Join(clone, "cmd", "procedures"), 0o755)
	writeFile(t, clone, ".claude-plugin/marketplace.json", `{"name": "procedures-go", "owner": {"name": "x"}, "plugins": [{"name": "procedures", "source": "./plugin"}]}`, 0o644)
	makeBundle(t, filepath.Join(clone, "plugin"))
	cache = filepath.Join(w.home, ".claude", "plugins", "cache", "procedures-go", "procedures", "0.0.0")
	makeBundle(t, cache)
	writeFile(t, w.home, ".claude/plugins/installed_plugins.json", `{
  "version": 2,
  "plugins": {
    "other@procedures-go": [{"scope": "user", "installPath": "/nonexistent", "version": "1"}],
    "procedures@procedures-go": [
      {
        "scope": "user",
        "installPath": "`+cache+`",
        "version": "0.0.0",
        "installedAt": "2026-12-04T15:52:49.340Z",
        "lastUpdated": "2026-12-04T15:52:49.340Z",
        "gitCommitSha": "efef83730dcee37adcfd2b6d53e18566c24265c4"
      }
    ]
  }
}`, 0o644)
	writeFile(t, w.home, ".claude/plugins/known_marketplaces.json", `{
  "procedures-go": {
    "source": {"source": "directory", "path": "`+clone+`"},
    "installLocation": "`+clone+`",
    "lastUpdated": "2026-12-04T15:52:48.704Z"
  }
}`, 0o644)
	return w, clone, cache
}

func (w *world) installedOptions() Options {
	o := w.options()
	o.Plugin = ""
	o.Settings.PluginsDir = filepath.Join(w.home, ".claude", "plugins")
	return o
}

// With no --plugin the doctor checks both copies Claude Code knows of (the
// installed copy and the directory marketplace's source), each finding led
// by its directory, and nothing else.
func TestDoctorFindsTheInstalledPlugin(t *testing.T) {
	w, clone, cache := installedWorld(t)
	r := Run(w.installedOptions())
	if r.Failed() || len(r.Installs) != 2 {
		t.Fatalf("%s", dump(t, r))
	}
	src := filepath.Join(clone, "plugin")
	for _, dir := range []string{cache, src} {
		if fs := findings(r, SectionWiring, dir+": how-do-i-gate"); len(fs) != 2 || fs[0].Status != OK {
			t.Errorf("%s not checked: %v", dir, fs)
		}
	}
	if !strings.Contains(r.Installs[0], "procedures@procedures-go 0.0.0 (installed copy, "+cache+")") || !strings.Contains(r.Installs[1], "(source, "+src+")") {
		t.Errorf("installs %q", r.Installs)
	}
}

// Each copy's fix is the command that writes that copy again: the source
// in a clone by the clone's go run line, the installed copy by installing
// it again; a stale installed copy is named with `claude plugin update`.
func TestDoctorFixesPerCopy(t *testing.T) {
	w, clone, cache := installedWorld(t)
	os.Remove(filepath.Join(clone, "plugin", "hooks", "hooks.json"))
	os.Remove(filepath.Join(cache, "hooks", "hooks.json"))
	writeFile(t, clone, "plugin/.claude-plugin/plugin.json", `{"name": "procedures", "version": "0.0.1"}`, 0o644)
	r := Run(w.installedOptions())
	src := findings(r, SectionWiring, filepath.Join(clone, "plugin")+": hooks.json")
	if len(src) != 1 || src[0].Fix != "cd "+clone+" && go run ./cmd/procedures bundle -o plugin" {
		t.Errorf("source: %v", src)
	}
	inst := findings(r, SectionWiring, cache+": hooks.json")
	if len(inst) != 1 || inst[0].Fix != "claude plugin uninstall --keep-data -s user procedures@procedures-go && claude plugin install -s user procedures@procedures-go" {
		t.Errorf("installed copy: %v", inst)
	}
	v := findings(r, SectionWiring, "procedures@procedures-go version")
	if len(v) != 1 || v[0].Status != Warn || v[0].Fix != "claude plugin update -s user procedures@procedures-go" || !strings.Contains(v[0].Reason, `is "0.0.1"`) {
		t.Errorf("version: %v\n%s", v, dump(t, r))
	}
}

// The bash original's wiring is named once, with the command that swaps
// it, and the six hooks it wires are not each failed again; its scripts
// are named too.
func TestDoctorNamesTheBashOriginal(t *testing.T) {
	w := newWorld(t)
	writeFile(t, w.plugin, "hooks/hooks.json", `{"hooks": {
  "PreToolUse": [{"hooks": [{"type": "command", "command": "bash ${CLAUDE_PLUGIN_ROOT}/hooks/how-do-i-gate.sh"}]}],
  "Stop": [{"hooks": [{"type": "command", "command": "bash ${CLAUDE_PLUGIN_ROOT}/hooks/am-i-done-gate.sh"}]}]
}}`, 0o644)
	writeFile(t, w.plugin, "scripts/query-records.sh", "#!/usr/bin/env bash\nawk 1\n", 0o755)
	r := Run(w.options())
	hj := findings(r, SectionWiring, "hooks.json")
	if len(hj) != 2 || hj[1].Status != Fail || !strings.Contains(hj[1].Reason, "runs the bash original's hook scripts (2 lines") || !strings.Contains(hj[1].Fix, " bundle -o ") {
		t.Errorf("hooks.json: %v", hj)
	}
	if fs := findings(r, SectionWiring, "how-do-i-gate"); len(fs) != 1 || fs[0].Subject != "how-do-i-gate skill" {
		t.Errorf("how-do-i-gate failed again: %v", fs)
	}
	if fs := findings(r, SectionWiring, "turn-state-reset"); len(fs) != 1 || fs[0].Status != Fail {
		t.Errorf("a hook the original does not wire is not failed: %v", fs)
	}
	sc := findings(r, SectionWiring, "scripts")
	if len(sc) != 1 || !strings.Contains(sc[0].Reason, "scripts/query-records.sh") {
		t.Errorf("scripts: %v", sc)
	}
}

// Identical findings are printed once, with their count; the tally still
// counts each.
func TestIdenticalFindingsPrintedOnce(t *testing.T) {
	r := &Report{Version: "test"}
	for range 3 {
		r.add(Finding{Section: SectionWiring, Status: Fail, Subject: "x", Reason: "the same", Fix: "true"})
	}
	r.add(Finding{Section: SectionWiring, Status: Fail, Subject: "y", Reason: "another", Fix: "true"})
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Count(out, "the same") != 1 || !strings.Contains(out, "  FAIL  x: the same (3 times)\n        fix: true\n  FAIL  y: another\n") {
		t.Errorf("%s", out)
	}
}

// A source rebuilt without moving its version: the installed copy holds
// another build at the same version, which claude plugin update would not
// see; the fix bundles at a later version and updates.
func TestDoctorNamesAnUnmovedVersion(t *testing.T) {
	w, clone, _ := installedWorld(t)
	host := filepath.Join(clone, "plugin", "bin")
	ents, _ := os.ReadDir(host)
	for _, e := range ents {
		if e.IsDir() {
			os.WriteFile(filepath.Join(host, e.Name(), "procedures"), []byte("a newer build\n"), 0o755)
		}
	}
	r := Run(w.installedOptions())
	v := findings(r, SectionWiring, "procedures@procedures-go version")
	want := "cd " + clone + " && go run ./cmd/procedures bundle -o plugin -version 0.0.0-1 && claude plugin update -s user procedures@procedures-go"
	if len(v) != 1 || v[0].Fix != want || !strings.Contains(v[0].Reason, "another build than its source's") {
		t.Errorf("%v\n%s", v, dump(t, r))
	}
}
