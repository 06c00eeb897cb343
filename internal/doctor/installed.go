package doctor

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// PluginName is the name the plugin is installed under.
const PluginName = "procedures"

// An Install is one copy of the procedures plugin Claude Code knows of:
// the copy it installed (installed_plugins.json's installPath) or, for a
// directory marketplace, the folder in that marketplace it reads the plugin
// from (the source).
type Install struct {
	ID      string // plugin@marketplace
	Scope   string // installed_plugins.json's scope ("" for a source)
	Dir     string // the plugin directory checked
	Version string // installed_plugins.json's version ("" for a source)
	// Source is set for a directory marketplace's folder: then Root is the
	// marketplace directory (a procedures-go clone, when Clone) and Rel the
	// plugin's path in it, as marketplace.json spells it.
	Source bool
	Root   string
	Rel    string
	Clone  bool
}

// Label names the copy in the report: the id and which copy.
func (in Install) Label() string {
	if in.Source {
		return in.ID + " (source, " + in.Dir + ")"
	}
	return in.ID + " " + in.Version + " (installed copy, " + in.Dir + ")"
}

// FindInstalls reads what Claude Code recorded under its plugins directory
// (~/.claude/plugins): every installed plugin named procedures, in
// installed_plugins.json, and, for each known directory marketplace that
// lists it, its source folder. Problems reading the files are returned as
// findings' reasons, beside what could be read.
func FindInstalls(pluginsDir string) ([]Install, []string) {
	var out []Install
	var problems []string
	var installed struct {
		Plugins map[string][]struct {
			Scope       string `json:"scope"`
			InstallPath string `json:"installPath"`
			Version     string `json:"version"`
		} `json:"plugins"`
	}
	ipath := filepath.Join(pluginsDir, "installed_plugins.json")
	if err := readJSON(ipath, &installed); err != nil && !os.IsNotExist(err) {
		problems = append(problems, err.Error())
	}
	ids := make([]string, 0, len(installed.Plugins))
	for id := range installed.Plugins {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if name, _, _ := strings.Cut(id, "@"); name != PluginName {
			continue
		}
		for _, e := range installed.Plugins[id] {
			out = append(out, Install{ID: id, Scope: e.Scope, Dir: e.InstallPath, Version: e.Version})
		}
	}
	var known map[string]struct {
		Source struct {
			Source string `json:"source"`
			Path   string `json:"path"`
		} `json:"source"`
		InstallLocation string `json:"installLocation"`
	}
	kpath := filepath.Join(pluginsDir, "known_marketplaces.json")
	if err := readJSON(kpath, &known); err != nil && !os.IsNotExist(err) {
		problems = append(problems, err.Error())
	}
	names := make([]string, 0, len(known))
	for n := range known {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		m := known[name]
		if m.Source.Source != "directory" || m.Source.Path == "" {
			continue
		}
		rel, err := marketplaceEntry(m.Source.Path)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		if rel == "" {
			continue
		}
		dir := filepath.Join(m.Source.Path, filepath.FromSlash(rel))
		out = append(out, Install{ID: PluginName + "@" + name, Dir: dir, Source: true,
			Root: m.Source.Path, Rel: rel, Clone: isClone(m.Source.Path)})
	}
	return out, problems
}

// marketplaceEntry is the relative source of the plugin named procedures
// in the marketplace at root ("" when it lists none, or not as a path).
func marketplaceEntry(root string) (string, error) {
	var m struct {
		Plugins []struct {
			Name   string          `json:"name"`
			Source json.RawMessage `json:"source"`
		} `json:"plugins"`
	}
	if err := readJSON(filepath.Join(root, ".claude-plugin", "marketplace.json"), &m); err != nil {
		return "", err
	}
	for _, p := range m.Plugins {
		var src string
		if p.Name == PluginName && json.Unmarshal(p.Source, &src) == nil && strings.HasPrefix(src, "./") {
			return strings.TrimPrefix(src, "./"), nil
		}
	}
	return "", nil
}

// isClone reports whether dir is a procedures-go checkout: its go.mod
// names the module and it has cmd/procedures.
func isClone(dir string) bool {
	data, err := readConfig(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	first, _, _ := strings.Cut(string(data), "\n")
	if strings.TrimSpace(first) != "module github.com/procedures-go/procedures" {
		return false
	}
	fi, err := os.Stat(filepath.Join(dir, "cmd", "procedures"))
	return err == nil && fi.IsDir()
}

// readJSON reads a small JSON file (at most MaxConfig bytes:
// installed_plugins.json, known_marketplaces.json, a marketplace.json,
// plugin.json) into v.
func readJSON(path string, v any) error {
	data, err := readConfig(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s does not parse: %v", path, jsonPosition(data, err))
	}
	return nil
}

// fixer spells the one command that writes a plugin copy again.
type fixer struct {
	in  *Install // nil: a directory given with --plugin, or the running bundle
	exe string   // the running binary, when it is a procedures multi-call binary
}

// rebundle is the command that writes the plugin at dir again, run as
// printed from any directory: for a directory marketplace in a
// procedures-go clone, the clone's go run line; for an installed copy,
// reinstalling it from its marketplace; else the bundle's own launcher (or
// this binary) with -self for this platform.
func (f fixer) rebundle(dir string) string {
	if in := f.in; in != nil {
		if in.Source && in.Clone {
			return "cd " + shellQuote(in.Root) + " && go run ./cmd/procedures bundle -o " + shellQuote(in.Rel)
		}
		if !in.Source {
			return f.reinstall()
		}
	}
	return rebundle(dir, f.exe)
}

// reinstall is the command that makes Claude Code copy the plugin again
// from its marketplace.
func (f fixer) reinstall() string {
	scope := f.in.Scope
	if scope == "" {
		scope = "user"
	}
	id := shellQuote(f.in.ID)
	return "claude plugin uninstall --keep-data -s " + scope + " " + id + " && claude plugin install -s " + scope + " " + id
}
