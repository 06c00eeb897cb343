package pluginlint

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/procedures-go/procedures/internal/frontmatter"
)

// A Skill is one skills/<name>/SKILL.md of a plugin.
type Skill struct {
	Name    string // the skill directory name
	Path    string // the SKILL.md path as printed in findings
	Context string // frontmatter context:, as a YAML scalar
	Model   string // frontmatter model:, as a YAML scalar
	Agent   string // frontmatter agent:, as a YAML scalar
	// ForkLine reports whether any line of the file (frontmatter or body)
	// sets context to fork; rule R4 compares it with Context.
	ForkLine bool
}

// IsFork reports whether the skill's frontmatter context is exactly fork.
func (s *Skill) IsFork() bool { return s.Context == "fork" }

// An Agent is one agents/<name>.md of a plugin.
type Agent struct {
	Name  string // file basename without .md
	Path  string // the file path as printed
	Model string // frontmatter model:, as a YAML scalar ("" when absent)
}

// A Plugin is one plugin root with its skills and agents, each sorted by name.
type Plugin struct {
	Dir    string
	Skills []*Skill
	Agents []*Agent
}

// Agent returns the plugin's agent with the given name, or nil.
func (p *Plugin) Agent(name string) *Agent {
	for _, a := range p.Agents {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// A Tree is the set of plugins a lint runs over: one in plugin mode, every
// plugins/*/ in repo mode.
type Tree struct {
	Plugins []*Plugin
}

// ErrNotDir is wrapped by Load when the directory to lint cannot be used.
var ErrNotDir = errors.New("not a readable directory")

// IsRepo reports whether dir is a repository of plugins rather than one
// plugin: it has at least one plugins/*/ directory and no skills entry.
func IsRepo(dir string) bool {
	if _, err := os.Lstat(filepath.Join(dir, "skills")); err == nil {
		return false
	}
	ents, err := os.ReadDir(filepath.Join(dir, "plugins"))
	if err != nil {
		return false
	}
	for _, e := range ents {
		if !hidden(e.Name()) && isDir(filepath.Join(dir, "plugins", e.Name())) {
			return true
		}
	}
	return false
}

// Load reads the plugin at dir, or, when repo is true, every directory
// directly under dir/plugins (sorted by name, hidden ones skipped as a
// shell glob does).
func Load(dir string, repo bool) (*Tree, error) {
	if err := checkDir(dir); err != nil {
		return nil, err
	}
	var dirs []string
	if repo {
		ents, err := os.ReadDir(filepath.Join(dir, "plugins"))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		for _, e := range ents {
			p := filepath.Join(dir, "plugins", e.Name())
			if !hidden(e.Name()) && isDir(p) {
				dirs = append(dirs, p)
			}
		}
	} else {
		dirs = []string{dir}
	}
	t := &Tree{}
	for _, d := range dirs {
		p, err := loadPlugin(d)
		if err != nil {
			return nil, err
		}
		t.Plugins = append(t.Plugins, p)
	}
	return t, nil
}

func checkDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("%s: %w", dir, ErrNotDir)
	}
	defer f.Close()
	if _, err := f.ReadDir(1); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("%s: %w", dir, ErrNotDir)
	}
	return nil
}

// hidden reports whether a directory entry is one a shell glob (*) skips.
// The rules name their inputs as globs (skills/*/SKILL.md, agents/*.md,
// plugins/*/), so dot entries are not part of a plugin.
func hidden(name string) bool { return strings.HasPrefix(name, ".") }

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

func loadPlugin(dir string) (*Plugin, error) {
	p := &Plugin{Dir: dir}
	ents, err := os.ReadDir(filepath.Join(dir, "skills"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, e := range ents {
		path := filepath.Join(dir, "skills", e.Name(), "SKILL.md")
		if hidden(e.Name()) || !isFile(path) {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		fm := parseFrontmatter(b)
		p.Skills = append(p.Skills, &Skill{
			Name:     e.Name(),
			Path:     path,
			Context:  fm.Scalar("context"),
			Model:    fm.Scalar("model"),
			Agent:    fm.Scalar("agent"),
			ForkLine: hasForkLine(b),
		})
	}
	ents, err = os.ReadDir(filepath.Join(dir, "agents"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), ".md")
		path := filepath.Join(dir, "agents", e.Name())
		if !ok || hidden(e.Name()) || !isFile(path) {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		p.Agents = append(p.Agents, &Agent{
			Name:  name,
			Path:  path,
			Model: parseFrontmatter(b).Scalar("model"),
		})
	}
	sort.Slice(p.Skills, func(i, j int) bool { return p.Skills[i].Name < p.Skills[j].Name })
	sort.Slice(p.Agents, func(i, j int) bool { return p.Agents[i].Name < p.Agents[j].Name })
	return p, nil
}

// parseFrontmatter reads a SKILL.md or agent frontmatter; CRLF line ends are
// accepted, as the frontmatter lint accepts them.
func parseFrontmatter(b []byte) *frontmatter.Frontmatter {
	return frontmatter.Parse(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")))
}

// hasForkLine reports whether some line of b starts with "context:" and its
// value, read as a YAML scalar, is fork (R4's raw sweep, with the same value
// semantics as the frontmatter view).
func hasForkLine(b []byte) bool {
	for line := range strings.Lines(string(b)) {
		if !strings.HasPrefix(line, "context:") {
			continue
		}
		one := "---\n" + strings.TrimRight(line, "\r\n") + "\n---\n"
		if frontmatter.Parse([]byte(one)).Scalar("context") == "fork" {
			return true
		}
	}
	return false
}
