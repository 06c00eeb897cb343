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
// own (gate.BinDir, given binDir, $PROCEDURES_BIN_DIR), with exe's symlinks
// resolved the way os.Executable resolves them for the running hook.
func hookBinDir(binDir, exe string) string {
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	return gate.BinDir(binDir, exe)
}

// turnState returns the default turn-state directory (def, or
// turnstate.DefaultDir when def is "") and the directory the hooks would
// use with it and the setting ts (turnstate.ResolveDir).
func turnState(ts config.TurnState, def string) (string, string) {
	if def == "" {
		def = turnstate.DefaultDir
	}
	return def, turnstate.ResolveDir(ts.Dir, def).Path
}
