package pluginlint

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func fork(path, agent, model string) *Skill {
	return &Skill{Name: path, Path: path, Context: "fork", Agent: agent, Model: model, ForkLine: true}
}

func TestCheckTierPin(t *testing.T) {
	one := &Plugin{Dir: "one",
		Skills: []*Skill{
			fork("a", "scout", "sonnet"),
			fork("drift", "scout", "opus"),
			fork("nopin", "", ""),
			fork("ghost", "missing", "haiku"),
			{Name: "inline", Path: "inline"},
		},
		Agents: []*Agent{{Name: "scout", Model: "sonnet"}, {Name: "plain"}},
	}
	two := &Plugin{Dir: "two", Skills: []*Skill{fork("remote", "scout", "sonnet")}}
	res := CheckTierPin(&Tree{Plugins: []*Plugin{one, two}}, TierPinOptions{
		RequireDeclaring: true, MinChecked: 9,
		RequireFork: []string{"a", "inline"}, RequireAgentModel: []string{"scout", "plain"},
	})
	want := []string{
		"drift pins 'opus' but agents/scout.md declares 'sonnet'",
		"nopin declares context:fork with no model: pin",
		"ghost pins 'haiku' but agents/missing.md declares ''",
		"remote pins 'sonnet' but agents/scout.md declares ''",
		"drift forks scout but pins 'opus' against the agent's 'sonnet'",
		"expected at least 9 fork skill(s) pinned against a declaring agent, checked 3",
		"inline: expected context: fork",
		"agents/plain.md declares no model:",
	}
	if !slices.Equal(res.Findings, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(res.Findings, "\n"), strings.Join(want, "\n"))
	}
	if res.Forks != 5 || res.Pairs != 3 {
		t.Errorf("forks=%d pairs=%d, want 5 and 3", res.Forks, res.Pairs)
	}
	if !slices.Equal(res.Notes, []string{"nopin forks with no agent:"}) {
		t.Errorf("notes = %q", res.Notes)
	}
}

func TestCheckTierPinR4AndR5(t *testing.T) {
	p := &Plugin{Skills: []*Skill{fork("f", "", "sonnet"), {Name: "body", Path: "body", ForkLine: true}}}
	res := CheckTierPin(&Tree{Plugins: []*Plugin{p}}, TierPinOptions{RequireDeclaring: true})
	want := []string{
		"corpus has 2 context:fork skills but the loop checked 1",
		"no agent declares model: — the sweep found nothing to check",
	}
	if !slices.Equal(res.Findings, want) {
		t.Errorf("findings = %q, want %q", res.Findings, want)
	}
}

func ExampleCheckTierPin() {
	tree := &Tree{Plugins: []*Plugin{{
		Skills: []*Skill{{Name: "how-do-i", Path: "skills/how-do-i/SKILL.md", Context: "fork",
			Agent: "scout", Model: "opus", ForkLine: true}},
		Agents: []*Agent{{Name: "scout", Model: "sonnet"}},
	}}}
	res := CheckTierPin(tree, TierPinOptions{})
	for _, f := range res.Findings {
		fmt.Println(f)
	}
	fmt.Println(res.Forks, res.Pairs)
	// Output:
	// skills/how-do-i/SKILL.md pins 'opus' but agents/scout.md declares 'sonnet'
	// skills/how-do-i/SKILL.md forks scout but pins 'opus' against the agent's 'sonnet'
	// 1 1
}
