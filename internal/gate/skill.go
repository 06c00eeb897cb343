package gate

import (
	"os"
	"path/filepath"
)

// The skills the gates name.
const (
	SkillHowDoI  = "how-do-i"
	SkillAmIDone = "am-i-done"
)

// BinDir is the directory that holds the hook executable:
// $PROCEDURES_BIN_DIR when set and non-empty (the plugin launcher sets it),
// else the directory of the running executable. It is never taken from
// CLAUDE_PLUGIN_ROOT.
func BinDir(getenv func(string) string) string {
	if d := getenv("PROCEDURES_BIN_DIR"); d != "" {
		return d
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return filepath.Dir(exe)
}

// SkillPath is <bin dir>/../skills/<skill>/SKILL.md, joined as text: the
// ".." is resolved by the kernel, after any symlink, never cleaned away.
func SkillPath(getenv func(string) string, skill string) string {
	return BinDir(getenv) + "/../skills/" + skill + "/SKILL.md"
}

// SkillReadable reports whether the skill a gate is about to name is
// installed beside the hooks: its SKILL.md opens for reading (a FIFO is not
// waited on).
func SkillReadable(getenv func(string) string, skill string) bool {
	if BinDir(getenv) == "" {
		return false
	}
	f, err := os.OpenFile(SkillPath(getenv, skill), os.O_RDONLY|nonblock, 0)
	if err != nil {
		return false
	}
	f.Close()
	return true
}
