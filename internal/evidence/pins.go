package evidence

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/procedures-go/procedures/internal/pluginlint"
)

// Where a pin was read, as TierRow.PinFrom says it.
const (
	PinFromPlugin    = "plugin"    // --plugin, or the bundle this binary belongs to
	PinFromInstalled = "installed" // a plugin Claude Code has installed
	PinFromSkill     = "skill"     // the model: a user skill declares in its own SKILL.md
)

// PinSet is the pins of fork skills by plugin:skill (or a user skill's
// bare name), and where each was read.
type PinSet struct {
	Pins map[string]string
	From map[string]string
}

// NewPinSet is an empty set.
func NewPinSet() *PinSet { return &PinSet{Pins: map[string]string{}, From: map[string]string{}} }

// add keeps the first pin read for a skill: the sources are added from
// the most to the least explicit.
func (ps *PinSet) add(skill, model, from string) {
	if _, ok := ps.Pins[skill]; ok || model == "" {
		return
	}
	ps.Pins[skill], ps.From[skill] = model, from
}

// AddPlugin reads the model each fork skill of the plugin at dir pins
// (model: in its SKILL.md, as tierpin-lint reads it). A plugin that
// cannot be read adds nothing.
func (ps *PinSet) AddPlugin(dir, from string) {
	if dir == "" {
		return
	}
	t, err := pluginlint.Load(dir, false)
	if err != nil || len(t.Plugins) == 0 {
		return
	}
	name := "procedures"
	if b, err := readSmall(filepath.Join(dir, ".claude-plugin", "plugin.json")); err == nil {
		var m struct{ Name string }
		if json.Unmarshal(b, &m) == nil && m.Name != "" {
			name = m.Name
		}
	}
	for _, s := range t.Plugins[0].Skills {
		if s.IsFork() {
			ps.add(name+":"+s.Name, s.Model, from)
		}
	}
}

// AddInstalled reads the plugins Claude Code lists as installed
// (home/.claude/plugins/installed_plugins.json: each plugin's installPath)
// and adds their fork skills' pins. The list and each plugin directory
// are read only when they are the user's and not writable by others.
func (ps *PinSet) AddInstalled(home string) {
	if home == "" {
		return
	}
	list := filepath.Join(home, ".claude", "plugins", "installed_plugins.json")
	fi, err := os.Lstat(list)
	if err != nil || !fi.Mode().IsRegular() || !trusted(fi) {
		return
	}
	b, err := readSmall(list)
	if err != nil {
		return
	}
	var doc struct {
		Plugins map[string][]struct {
			InstallPath string `json:"installPath"`
		} `json:"plugins"`
	}
	if json.Unmarshal(b, &doc) != nil {
		return
	}
	names := make([]string, 0, len(doc.Plugins))
	for k := range doc.Plugins {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		for _, inst := range doc.Plugins[k] {
			if filepath.IsAbs(inst.InstallPath) && trustedDir(inst.InstallPath, nil) == nil {
				ps.AddPlugin(inst.InstallPath, PinFromInstalled)
			}
		}
	}
}

// AddUserSkills reads the model: of the user's own skills
// (home/.claude/skills/<name>/SKILL.md) whose SKILL.md says context: fork.
func (ps *PinSet) AddUserSkills(home string) {
	if home == "" {
		return
	}
	dir := filepath.Join(home, ".claude", "skills")
	if trustedDir(dir, nil) != nil {
		return
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name(), "SKILL.md")
		fi, err := os.Lstat(p)
		if !e.IsDir() || err != nil || !fi.Mode().IsRegular() || !trusted(fi) {
			continue
		}
		if model, fork := frontmatterModel(p); fork {
			ps.add(e.Name(), model, PinFromSkill)
		}
	}
}

// frontmatterModel reads the model: and context: lines of a SKILL.md's
// leading --- block (plain scalars, quotes removed).
func frontmatterModel(p string) (model string, fork bool) {
	f, err := os.Open(p)
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 64<<10))
	for i := 0; sc.Scan(); i++ {
		line := strings.TrimSpace(sc.Text())
		if i == 0 {
			if line != "---" {
				return "", false
			}
			continue
		}
		if line == "---" {
			break
		}
		k, v, ok := strings.Cut(line, ":")
		v = strings.Trim(strings.TrimSpace(v), `"'`)
		switch {
		case !ok:
		case k == "model":
			model = v
		case k == "context":
			fork = v == "fork"
		}
	}
	return model, fork
}

func readSmall(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 1<<20))
}
