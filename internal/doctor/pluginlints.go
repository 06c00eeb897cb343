package doctor

import (
	"fmt"

	"github.com/procedures-go/procedures/internal/pluginlint"
)

// maxLintFindings caps the findings each plugin lint adds to a report; the
// rest are counted in one more finding.
const maxLintFindings = 20

// checkPluginLints adds, to the Wiring section, what tierpin-lint and
// plugin-surface-lint (without --procedures) report on the plugin: one
// finding per lint finding, each a fail (the lint itself exits 1), or one
// ok line when it is clean. It reads only.
func checkPluginLints(r *Report, plugin string) {
	add := func(st Status, subject, reason, fix string) {
		r.add(Finding{Section: SectionWiring, Status: st, Subject: subject, Reason: reason, Fix: fix})
	}
	if plugin == "" {
		return // checkWiring said there is no plugin
	}
	report := func(lint string, findings []string, clean string) {
		for i, f := range findings {
			if i == maxLintFindings {
				add(Fail, lint, fmt.Sprintf("%d more findings", len(findings)-i), "run it for the whole list: procedures "+lint+" "+shellQuote(plugin))
				break
			}
			add(Fail, lint, f, "fix it, then check again: procedures "+lint+" "+shellQuote(plugin))
		}
		if len(findings) == 0 {
			add(OK, lint, clean, "")
		}
	}
	if tree, err := pluginlint.Load(plugin, pluginlint.IsRepo(plugin)); err != nil {
		add(Fail, "tierpin-lint", fmt.Sprintf("cannot read %s: %v", plugin, err), "")
	} else {
		res := pluginlint.CheckTierPin(tree, pluginlint.TierPinOptions{})
		report("tierpin-lint", res.Findings, fmt.Sprintf("%d fork skill(s), %d agent pin(s) checked, no finding", res.Forks, res.Pairs))
	}
	if res, err := pluginlint.CheckSurface(plugin, pluginlint.SurfaceOptions{}); err != nil {
		add(Fail, "plugin-surface-lint", fmt.Sprintf("cannot check %s: %v", plugin, err), "")
	} else {
		report("plugin-surface-lint", res.Findings, fmt.Sprintf("%d skill(s), no finding", res.Skills))
	}
}
