package gate

import (
	"os"
	"path/filepath"

	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/fsx"
)

// The skills the gates name.
const (
	SkillHowDoI  = "how-do-i"
	SkillAmIDone = "am-i-done"
)

// BinDir is the directory that holds the hook executable exe:
// $PROCEDURES_BIN_DIR when set and non-empty (the plugin launcher sets it),
// else the directory of exe, or "" when exe is "". It is never taken from
// CLAUDE_PLUGIN_ROOT. A gate passes its own executable; the doctor passes
// the one a hook command runs.
func BinDir(getenv func(string) string, exe string) string {
	if d := config.BinDir(getenv); d != "" {
		return d
	}
	if exe == "" {
		return ""
	}
	return filepath.Dir(exe)
}

// SkillPath is <bindir>/../skills/<skill>/SKILL.md, joined as text: the
// ".." is resolved by the kernel, after any symlink, never cleaned away.
func SkillPath(bindir, skill string) string {
	return bindir + "/../skills/" + skill + "/SKILL.md"
}

// Readable returns nil when the current user can open path for reading. A
// FIFO is not waited on.
func Readable(path string) error {
	f, err := os.OpenFile(path, os.O_RDONLY|fsx.NonBlock, 0)
	if err != nil {
		return err
	}
	return f.Close()
}

// SkillReadable reports whether the skill a gate is about to name is
// installed beside the running hook: its SKILL.md opens for reading.
func SkillReadable(getenv func(string) string, skill string) bool {
	exe, err := os.Executable()
	if err != nil {
		exe = ""
	}
	bindir := BinDir(getenv, exe)
	return bindir != "" && Readable(SkillPath(bindir, skill)) == nil
}
