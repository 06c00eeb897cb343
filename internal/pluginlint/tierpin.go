package pluginlint

import (
	"fmt"
	"slices"
)

// TierPinOptions are the repository facts rules R5–R8 check; the zero value
// checks R1–R4 only.
type TierPinOptions struct {
	RequireDeclaring  bool     // R5: at least one agent declares model:
	MinChecked        int      // R6: R3 checked at least this many pairs
	RequireFork       []string // R7: each named skill exists and forks
	RequireAgentModel []string // R8: each named agent exists and declares model:
}

// TierPinResult is the outcome of [CheckTierPin].
type TierPinResult struct {
	Forks    int      // fork skills seen (frontmatter context: fork)
	Pairs    int      // (skill, declaring agent) pairs the R3 sweep checked
	Findings []string // one message per finding, in rule order
	Notes    []string // informational: fork skills with no agent:
}

// CheckTierPin applies rules R1–R8 of the tier-pin lint to t and reports
// every finding. Model values are compared as YAML scalars, so "sonnet" and
// sonnet are the same tier and comments are ignored.
func CheckTierPin(t *Tree, opt TierPinOptions) *TierPinResult {
	r := &TierPinResult{}
	find := func(format string, a ...any) { r.Findings = append(r.Findings, fmt.Sprintf(format, a...)) }
	var forks []*Skill
	forkLines := 0
	for _, p := range t.Plugins {
		for _, s := range p.Skills {
			if s.ForkLine {
				forkLines++
			}
			if !s.IsFork() {
				continue
			}
			forks = append(forks, s)
			// R1: a fork skill pins a model.
			if s.Model == "" {
				find("%s declares context:fork with no model: pin", s.Path)
			}
			if s.Agent == "" {
				// A fork with no agent is noted, not checked against one (R2, R3).
				r.Notes = append(r.Notes, fmt.Sprintf("%s forks with no agent:", s.Path))
				continue
			}
			// R2: the same-plugin agent declares the same model ('' when
			// the agent file or its model is missing).
			am := ""
			if a := p.Agent(s.Agent); a != nil {
				am = a.Model
			}
			if s.Model != am {
				find("%s pins '%s' but agents/%s.md declares '%s'", s.Path, s.Model, s.Agent, am)
			}
		}
	}
	r.Forks = len(forks)
	// R3: every declaring agent, swept against every fork skill in scope.
	declaring := 0
	for _, p := range t.Plugins {
		for _, a := range p.Agents {
			if a.Model == "" {
				continue
			}
			declaring++
			for _, s := range forks {
				if s.Agent == "" || s.Agent != a.Name {
					continue
				}
				r.Pairs++
				if s.Model != a.Model {
					find("%s forks %s but pins '%s' against the agent's '%s'", s.Path, a.Name, s.Model, a.Model)
				}
			}
		}
	}
	// R4: the raw sweep and the frontmatter view agree.
	if forkLines != len(forks) {
		find("corpus has %d context:fork skills but the loop checked %d", forkLines, len(forks))
	}
	if opt.RequireDeclaring && declaring == 0 {
		find("no agent declares model: — the sweep found nothing to check")
	}
	if opt.MinChecked > 0 && r.Pairs < opt.MinChecked {
		find("expected at least %d fork skill(s) pinned against a declaring agent, checked %d", opt.MinChecked, r.Pairs)
	}
	for _, name := range opt.RequireFork {
		if !slices.ContainsFunc(forks, func(s *Skill) bool { return s.Name == name }) {
			find("%s: expected context: fork", name)
		}
	}
	for _, name := range opt.RequireAgentModel {
		ok := false
		for _, p := range t.Plugins {
			if a := p.Agent(name); a != nil && a.Model != "" {
				ok = true
			}
		}
		if !ok {
			find("agents/%s.md declares no model:", name)
		}
	}
	return r
}
