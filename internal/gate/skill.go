package gate

import (
	"os"
	"path/filepath"

	"github.com/procedures-go/procedures/internal/fsx"
)

// The skills the gates name.
const (
	SkillHowDoI  = "how-do-i"
	SkillAmIDone = "am-i-done"
)

// BinDir is the directory that holds the hook executable exe: set
// ($PROCEDURES_BIN_DIR, which the plugin launcher sets) when non-empty,
// else the directory of exe, or "" when exe is "". It is never taken from
// CLAUDE_PLUGIN_ROOT. A gate passes its own executable; the doctor passes
// the one a hook command runs.
func BinDir(set, exe string) string {
	if set != "" {
		return set
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
// installed beside the running hook (binDir is $PROCEDURES_BIN_DIR, see
// [BinDir]): its SKILL.md opens for reading.
func SkillReadable(binDir, skill string) bool {
	exe, err := os.Executable()
	if err != nil {
		exe = ""
	}
	bindir := BinDir(binDir, exe)
	return bindir != "" && Readable(SkillPath(bindir, skill)) == nil
}
