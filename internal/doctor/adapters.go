package doctor

// This file is where the doctor takes the rules other packages own: the
// corpus root each command reads (records), the whole-corpus frontmatter
// lint (records), where a gate looks for its skill (internal/gate), and the
// turn-state directory (digest).

import (
	"path/filepath"

	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/gate"
	"github.com/procedures-go/procedures/internal/lint"
	"github.com/procedures-go/procedures/internal/turnstate"
)

// corpusCommands are the commands that read a corpus root, in report order.
var corpusCommands = []string{"query-records", "lint-frontmatter", "enforce-frontmatter", "log-record"}

// corpusRootVars are the corpus commands' own root variables (log-record
// has none).
var corpusRootVars = map[string]string{
	"query-records":       config.QueryRecordsRoot,
	"lint-frontmatter":    config.LintFrontmatterRoot,
	"enforce-frontmatter": config.KnowledgeRoot,
}

// corpusRoot is the root command would use (config.RecordsRoot with its
// own variable) and from names where it came from. ok is false when HOME is
// needed but empty or unset: query-records then exits 1, and the others use
// /.claude.
func corpusRoot(command string, getenv func(string) string) (root, from string, ok bool) {
	own := corpusRootVars[command]
	root = config.RecordsRoot(getenv, own)
	switch {
	case own != "" && getenv(own) != "":
		return root, "$" + own, true
	case getenv(config.CodexRoot) != "":
		return root, "$CODEX_ROOT", true
	}
	return root, "$HOME/.claude", getenv(config.Home) != ""
}

// lintSummary runs the whole-corpus frontmatter lint on root, read-only,
// and counts its errors (duplicate ids included) and warnings.
func lintSummary(root string) (linted, errs, warns int, err error) {
	res, err := lint.LintCorpus(root)
	if err != nil {
		return 0, 0, 0, err
	}
	for _, f := range res.Findings {
		if f.Severity == lint.SeverityWarning {
			warns++
		} else {
			errs++
		}
	}
	return res.Linted, errs + len(res.Duplicates), warns, nil
}

// gateSkills maps each gate hook to the skill it names.
var gateSkills = map[string]string{
	"how-do-i-gate":  gate.SkillHowDoI,
	"am-i-done-gate": gate.SkillAmIDone,
}

// hookBinDir is the directory a hook run as the executable exe takes as its
// own (gate.BinDir), with exe's symlinks resolved the way os.Executable
// resolves them for the running hook.
func hookBinDir(getenv func(string) string, exe string) string {
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	return gate.BinDir(config.BinDir(getenv), exe)
}

// turnState returns the default turn-state directory (def, or
// turnstate.DefaultDir when def is "") and the directory the hooks would
// use with it (turnstate.ResolveDir).
func turnState(getenv func(string) string, def string) (string, string) {
	if def == "" {
		def = turnstate.DefaultDir
	}
	return def, turnstate.ResolveDir(config.TurnStateFrom(getenv).Dir, def).Path
}
