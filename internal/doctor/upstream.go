package doctor

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/procedures-go/procedures/internal/bundle"
)

// checkUpstream adds one Fail when hooks.json still runs the bash
// original's hook scripts (bash ${CLAUDE_PLUGIN_ROOT}/hooks/<hook>.sh) and
// one when the scripts its skills call are the bash original, not the
// bundle's shims: a session then runs bash, jq and awk. It returns the
// hooks wired by the bash original, which the rest of the check leaves to
// this finding.
func checkUpstream(r *Report, plugin string, hooks []wired, f fixer) map[string]bool {
	upstream := map[string]bool{}
	var lines []string
	for _, w := range hooks {
		if w.upstream != "" {
			upstream[w.upstream] = true
			lines = append(lines, w.where()+": "+w.command)
		}
	}
	if len(lines) > 0 {
		r.add(Finding{Section: SectionWiring, Status: Fail, Subject: "hooks.json",
			Reason: fmt.Sprintf("%s runs the bash original's hook scripts (%d lines: %s): every such event runs bash and jq; bundling into this directory replaces exactly these lines",
				filepath.Join(plugin, "hooks", "hooks.json"), len(lines), strings.Join(lines, "; ")),
			Fix: f.rebundle(plugin)})
	}
	var originals []string
	for _, s := range bundle.Shims {
		path := filepath.Join(plugin, filepath.FromSlash(s.Script))
		data, err := readConfig(path)
		if err != nil {
			if !os.IsNotExist(err) {
				originals = append(originals, s.Script+" ("+cause(err).Error()+")")
			}
			continue
		}
		if !bundle.IsShim(data) {
			originals = append(originals, s.Script)
		}
	}
	if len(originals) > 0 {
		r.add(Finding{Section: SectionWiring, Status: Fail, Subject: "scripts",
			Reason: fmt.Sprintf("the bash original's %s, which its skills and agent run, are still in %s: the scout runs bash, jq and awk; bundling into this directory makes them shims that run bin/procedures",
				strings.Join(originals, ", "), plugin),
			Fix: f.rebundle(plugin)})
	}
	return upstream
}
