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
func checkPluginLints(r *Report, o *Options, plugin string) {
	add := func(st Status, subject, reason, fix string) {
		r.add(Finding{Section: SectionWiring, Status: st, Subject: subject, Reason: reason, Fix: fix})
	}
	if plugin == "" {
		return // checkWiring said there is no plugin
	}
	// The fix lists the lint's findings again, to correct by hand.
	report := func(lint string, findings []string, clean string) {
		again := selfCmd(o) + " " + lint + " " + shellQuote(plugin)
		for i, f := range findings {
			if i == maxLintFindings {
				add(Fail, lint, fmt.Sprintf("%d more findings: the fix lists them all", len(findings)-i), again)
				break
			}
			add(Fail, lint, f, again)
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
