package pluginlint

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func write(t *testing.T, root, name, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
		t.Fatal(err)
	}
}

func TestLoadReadsFrontmatterAsYAML(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "skills/s/SKILL.md", "---\ncontext: 'fork'\nagent: \"scout\"\nmodel: sonnet # pinned\n---\nbody\n")
	write(t, dir, "agents/scout.md", "---\nname: scout\n---\nmodel: opus\n")
	write(t, dir, "agents/notes.txt", "model: x\n")
	if IsRepo(dir) {
		t.Fatal("a plugin with skills/ is not a repo")
	}
	tree, err := Load(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	p := tree.Plugins[0]
	s := p.Skills[0]
	if !s.IsFork() || s.Agent != "scout" || s.Model != "sonnet" || !s.ForkLine {
		t.Errorf("skill = %+v", s)
	}
	if len(p.Agents) != 1 || p.Agents[0].Model != "" {
		t.Errorf("agents = %+v (a body model: line is not a declaration)", p.Agents)
	}
}

func TestLoadRepoAndErrors(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "plugins/b/skills/x/SKILL.md", "---\nname: x\n---\n")
	write(t, dir, "plugins/a/agents/y.md", "---\nmodel: haiku\n---\n")
	write(t, dir, "plugins/README.md", "not a plugin\n")
	if !IsRepo(dir) {
		t.Fatal("plugins/*/ without skills/ is a repo")
	}
	tree, err := Load(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(tree.Plugins) != 2 || filepath.Base(tree.Plugins[0].Dir) != "a" {
		t.Errorf("plugins = %+v", tree.Plugins)
	}
	if _, err := Load(filepath.Join(dir, "nope"), false); !errors.Is(err, ErrNotDir) {
		t.Errorf("missing dir: err = %v, want ErrNotDir", err)
	}
	if _, err := Load(filepath.Join(dir, "plugins/README.md"), false); !errors.Is(err, ErrNotDir) {
		t.Errorf("file: err = %v, want ErrNotDir", err)
	}
}

func TestCheckSurface(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "skills/a/SKILL.md", "---\nname: a\ndescription: A.\n---\n${CLAUDE_PLUGIN_ROOT}/x.sh ${CLAUDE_SKILL_DIR}/ok.md\n")
	write(t, dir, "skills/a/ok.md", "ok\n")
	write(t, dir, "skills/b/SKILL.md", "name: 'a'\ndescription:\n")
	res, err := CheckSurface(dir, SurfaceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"b: name 'a' != dir 'b'",
		"b: no description:",
		"duplicate skill slugs: a",
		"dead pointer: a/SKILL.md -> ${CLAUDE_PLUGIN_ROOT}/x.sh",
	}
	if len(res.Findings) != len(want) {
		t.Fatalf("findings = %q, want %q", res.Findings, want)
	}
	for i := range want {
		if res.Findings[i] != want[i] {
			t.Errorf("finding %d = %q, want %q", i, res.Findings[i], want[i])
		}
	}
}
