package bundle

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/wiring"
)

// A new plugin.json carries name, version, description, author and the
// switches, in that order.
func TestPluginJSONFresh(t *testing.T) {
	got := string(PluginJSON("1.2.3", ""))
	for _, want := range []string{`"name": "procedures"`, `"version": "1.2.3"`, `"description": "` + Description + `"`, `"author": {` + "\n    " + `"name": "procedures-go"`, `"userConfig": {`} {
		if !strings.Contains(got, want) {
			t.Errorf("no %s in\n%s", want, got)
		}
	}
	if !strings.Contains(string(PluginJSON("1", "Ada")), `"name": "Ada"`) {
		t.Errorf("-author not used")
	}
	if i, j := strings.Index(got, `"description"`), strings.Index(got, `"author"`); i < 0 || j < i {
		t.Errorf("author not after description:\n%s", got)
	}
}

// Merging into nothing, or into the file the bundle itself wrote, is the
// bundle's own file, byte for byte.
func TestMergeIdempotent(t *testing.T) {
	hooks := wiring.HooksJSON(HookCommand)
	plugin := PluginJSON("1.0.0", "")
	for _, tc := range []struct {
		name         string
		merge        func(old, fresh []byte) ([]byte, error)
		fresh, again []byte
	}{{"hooks", MergeHooksJSON, hooks, hooks}, {"plugin", MergePluginJSON, plugin, plugin}} {
		got, err := tc.merge(tc.fresh, tc.fresh)
		if err != nil || !bytes.Equal(got, tc.fresh) {
			t.Errorf("%s: merged onto itself: %v\n%s\nwant\n%s", tc.name, err, got, tc.fresh)
		}
	}
}

// The operator's keys keep their values and their order; a switch the
// operator set keeps its values (a gate set off by default stays off),
// the ones missing are added, and the operator's own option is kept.
func TestMergePluginJSONKeepsOperatorKeys(t *testing.T) {
	old := `{
  "name": "my-kb",
  "author": {"name": "Ada", "email": "ada@example.com"},
  "version": "9.9.9",
  "keywords": ["kb", "<&>"],
  "userConfig": {
    "my_option": {"type": "string", "title": "mine"},
    "enable_how_do_i_gate": {"type": "boolean", "title": "old title", "description": "old", "default": false}
  },
  "description": "my own"
}`
	got, err := MergePluginJSON([]byte(old), PluginJSON("1.0.0", ""))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	dec := json.NewDecoder(bytes.NewReader(got))
	dec.Token()
	for dec.More() {
		tok, _ := dec.Token()
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		dec.Decode(&skip)
	}
	if strings.Join(keys, ",") != "name,author,version,keywords,userConfig,description" {
		t.Errorf("keys %q, want the operator's order", keys)
	}
	var doc struct {
		Name, Version, Description string
		Author                     map[string]string
		Keywords                   []string
		UserConfig                 map[string]map[string]any
	}
	if err := json.Unmarshal(got, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Name != "my-kb" || doc.Version != "9.9.9" || doc.Description != "my own" || doc.Author["email"] != "ada@example.com" || doc.Keywords[1] != "<&>" {
		t.Errorf("operator's keys changed:\n%s", got)
	}
	if !strings.Contains(string(got), `"<&>"`) {
		t.Errorf("HTML-escaped:\n%s", got)
	}
	if doc.UserConfig["my_option"]["title"] != "mine" {
		t.Errorf("operator's option lost:\n%s", got)
	}
	for _, s := range wiring.Switches() {
		o := doc.UserConfig[s.Option]
		if s.Option == "enable_how_do_i_gate" {
			if o["title"] != "old title" || o["description"] != "old" || o["default"] != false || o["type"] != "boolean" {
				t.Errorf("the operator's switch %s not kept: %v", s.Option, o)
			}
			continue
		}
		if o["title"] != s.Title || o["default"] != true {
			t.Errorf("switch %s not added: %v", s.Option, o)
		}
	}
	_, kept, err := mergePlugin([]byte(old), PluginJSON("1.0.0", ""), "")
	if err != nil || len(kept) != 3 || !strings.Contains(strings.Join(kept, "\n"), "kept your enable_how_do_i_gate default: false") {
		t.Errorf("kept %q, %v; want the three values named", kept, err)
	}
}

// -version V moves the version of an existing plugin.json; without it the
// operator's stays.
func TestMergePluginJSONSetsVersion(t *testing.T) {
	old := []byte(`{"name": "p", "version": "0.7.1"}`)
	got, _, err := mergePlugin(old, PluginJSON("2.0.0", ""), "2.0.0")
	if err != nil || !strings.Contains(string(got), `"version": "2.0.0"`) {
		t.Errorf("version not set: %v\n%s", err, got)
	}
	got, _, _ = mergePlugin(old, PluginJSON("2.0.0", ""), "")
	if !strings.Contains(string(got), `"version": "0.7.1"`) {
		t.Errorf("version not kept:\n%s", got)
	}
}

// The operator's own hooks stay, ours are replaced: a handler of ours in a
// mixed group goes, a group of ours only goes, an event of theirs only
// stays, and an old exec-form entry of ours is not doubled. Ours are the
// lines HookCommand writes and the ones OldHookCommand wrote (sh
// <launcher>, of bundles already installed), for a hook of this build or
// a renamed one; a line of the operator's that sources the launcher some
// other way stays.
func TestMergeHooksJSONKeepsOperatorHooks(t *testing.T) {
	old := `{
  "description": "mine",
  "hooks": {
    "Notification": [{"hooks": [{"type": "command", "command": "notify-send done && echo >/dev/null"}]}],
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "my-bash-check"}, {"type": "command", "command": "sh \"${CLAUDE_PLUGIN_ROOT}/bin/procedures\" how-do-i-gate"}]},
      {"hooks": [{"type": "command", "command": "sh \"${CLAUDE_PLUGIN_ROOT}/bin/procedures\" old-renamed-hook"}]},
      {"hooks": [{"type": "command", "command": "set -- \"${CLAUDE_PLUGIN_ROOT}/bin/procedures\" new-renamed-hook; . \"$1\""}]},
      {"hooks": [{"type": "command", "command": "set -- \"${CLAUDE_PLUGIN_ROOT}/bin/procedures\" how-do-i-gate; . \"$1\"; echo mine-after"}]},
      {"hooks": [{"type": "command", "command": "set -- \"${CLAUDE_PLUGIN_ROOT}/bin/procedures\" query-records --mine; . \"$1\""}]}
    ],
    "PostToolUse": [
      {"matcher": "Skill", "hooks": [{"type": "command", "command": "set -- \"${CLAUDE_PLUGIN_ROOT}/bin/procedures\" digest-record; . \"$1\""}]}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/bin/am-i-done-gate", "args": []}]}]
  }
}`
	got, err := MergeHooksJSON([]byte(old), wiring.HooksJSON(HookCommand))
	if err != nil {
		t.Fatal(err)
	}
	s := string(got)
	if !strings.HasPrefix(s, "{\n  \"description\": \"mine\",\n  \"hooks\": {") {
		t.Errorf("top-level keys moved:\n%s", s)
	}
	for _, want := range []string{"notify-send done && echo >/dev/null", "my-bash-check", "echo mine-after", "query-records --mine"} {
		if strings.Count(s, want) != 1 {
			t.Errorf("%q not kept once:\n%s", want, s)
		}
	}
	for _, h := range wiring.Hooks() {
		if n := strings.Count(s, quote(HookCommand(h.Command))); n != 1 {
			t.Errorf("%s wired %d times:\n%s", h.Command, n, s)
		}
	}
	for _, gone := range []string{"old-renamed-hook", "new-renamed-hook", "bin/am-i-done-gate", `"sh \"`} {
		if strings.Contains(s, gone) {
			t.Errorf("%s kept:\n%s", gone, s)
		}
	}
	if i, j := strings.Index(s, `"Stop"`), strings.Index(s, `"Notification"`); j < i {
		t.Errorf("the operator's own event is not after ours:\n%s", s)
	}
	var doc map[string]any
	if err := json.Unmarshal(got, &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, s)
	}
}

// A file that does not parse is refused with its line and column, and the
// bundle writes nothing.
func TestWriteRefusesBrokenJSON(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "hooks"), 0o755)
	os.WriteFile(filepath.Join(dir, "hooks", "hooks.json"), []byte("{\n  \"hooks\": {\n    \"Stop\": [,]\n}\n"), 0o644)
	bin := fakeBinary(t)
	err := Write(Options{Dir: dir, Platforms: []Platform{Host()}, Version: "1", Binary: bin})
	if err == nil || !strings.Contains(err.Error(), "hooks.json: line 3, column 14: invalid character ','") {
		t.Fatalf("err %v, want line 3, column 14", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "bin")); err == nil {
		t.Errorf("bin/ written despite the refusal")
	}
}

func fakeBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "procedures")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho new\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// A partial re-bundle removes (and names) the binaries of the platforms it
// leaves out, and nothing else: a file the bundle did not write, and the
// directory holding it, stay.
func TestWriteRemovesStalePlatforms(t *testing.T) {
	dir := t.TempDir()
	var others []Platform
	for _, p := range Platforms {
		if p != Host() {
			others = append(others, p)
		}
		d := filepath.Join(dir, "bin", p.String())
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, p.Exe()), []byte("old"), 0o755)
	}
	mine := filepath.Join(dir, "bin", others[0].String(), "NOTES")
	os.WriteFile(mine, []byte("mine"), 0o644)
	var log bytes.Buffer
	if err := Write(Options{Dir: dir, Platforms: []Platform{Host()}, Version: "1", Binary: fakeBinary(t), Log: &log}); err != nil {
		t.Fatal(err)
	}
	for _, p := range others {
		stale := filepath.Join(dir, "bin", p.String(), p.Exe())
		if _, err := os.Stat(stale); err == nil {
			t.Errorf("%s kept", stale)
		}
		if !strings.Contains(log.String(), "bundle: removed stale "+stale+" ("+p.String()+" is not in -platforms") {
			t.Errorf("%s not named in the log:\n%s", stale, log.String())
		}
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("the operator's file went: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "bin", others[1].String())); err == nil {
		t.Errorf("an emptied platform directory kept")
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "bin", Host().String(), Host().Exe())); string(data) != "#!/bin/sh\necho new\n" {
		t.Errorf("host binary not refreshed: %q", data)
	}
}

// The hooks.json line sources the launcher in Claude Code's own sh -c (one
// exec of sh less per hook call); the line bundles wrote before ran it.
func TestHookCommand(t *testing.T) {
	if got, want := HookCommand("how-do-i-gate"), `set -- "${CLAUDE_PLUGIN_ROOT}/bin/procedures" how-do-i-gate; . "$1"`; got != want {
		t.Errorf("HookCommand: %s, want %s", got, want)
	}
	if got, want := OldHookCommand("how-do-i-gate"), `sh "${CLAUDE_PLUGIN_ROOT}/bin/procedures" how-do-i-gate`; got != want {
		t.Errorf("OldHookCommand: %s, want %s", got, want)
	}
	dir := t.TempDir()
	if err := Write(Options{Dir: dir, Platforms: []Platform{Host()}, Version: "1", Binary: fakeBinary(t)}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "hooks", "hooks.json"))
	if err != nil || !bytes.Equal(data, wiring.HooksJSON(HookCommand)) {
		t.Errorf("hooks.json is not the table's with HookCommand: %v\n%s", err, data)
	}
	// The doctor tells a launcher that may be sourced by this line.
	if !slices.Contains(strings.Split(Launcher([]Platform{Host()}), "\n"), SourceableMark) {
		t.Errorf("the launcher has no line %q", SourceableMark)
	}
}
