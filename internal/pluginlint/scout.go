package pluginlint

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// The scout's prompt files: the one the how-do-i fork loads, and the agent
// file a direct spawn loads. Both carry the whole retrieval contract.
const (
	ScoutSkillFile = "skills/how-do-i/SKILL.md"
	ScoutAgentFile = "agents/procedure-scout.md"
)

// launcherRE is the only way a prompt may start a command: the plugin's own
// launcher, running the retrieval surface or the digest reader.
var launcherRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^sh "\$\{CLAUDE_PLUGIN_ROOT\}/bin/procedures" (query-records|session-digest-read)( |$)`)
})

// slotRE is a placeholder the model fills in: <goal words>, <path>.
var slotRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<[a-z][a-z -]*>`) })

// varRE is a ${NAME} reference the CLI may or may not expand.
var varRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{([^}]*)\}`) })

// retrievalFlags start a query-records retrieval (--list-stores does not).
var retrievalFlags = []string{"--recall", "--search", "--keyword", "--kind", "--links-to", "--id", "--cat", "--full"}

// gapFlags are the probes recall's gaps are filled with.
var gapFlags = []string{"--keyword", "--kind", "--links-to"}

func re(s string) *regexp.Regexp { return regexp.MustCompile(s) }

// scoutRule is one clause of the retrieval contract, checked in one file.
type scoutRule struct {
	name  string
	check func(p *prompt) []string
}

// scoutRules apply to both prompt files.
var scoutRules = []scoutRule{
	{"surface-only", surfaceOnly},
	{"recall-first", recallFirst},
	{"list-stores", listStoresFirst},
	{"cat-batch", catBatch},
	{"warm-start", warmStart},
	{"repo-first", repoFirst},
	{"unreachable", unreachable},
	{"budget", budget},
	{"sole-surface", soleSurface},
	{"output-shape", outputShape},
}

// CheckScoutPrompts applies the retrieval-contract rules to the scout's two
// prompt files under the plugin at dir, then checks that the files agree,
// that the agent file says it does not bind the fork and that the fork skill
// pins its agent's model. Each finding starts with its rule's name.
func CheckScoutPrompts(dir string) ([]string, error) {
	skill, agent, out, err := checkPair(dir, ScoutSkillFile, ScoutAgentFile, scoutRules)
	if err != nil {
		return nil, err
	}
	for _, p := range []*prompt{skill, agent} {
		for _, f := range variables(p, p == skill) {
			out = append(out, "variables: "+p.path+": "+f)
		}
	}
	for _, f := range parity(skill, agent) {
		out = append(out, "parity: "+f)
	}
	for _, f := range agentBinding(agent) {
		out = append(out, "agent-binding: "+agent.path+": "+f)
	}
	for _, f := range forkPin(skill, agent, "procedure-scout") {
		out = append(out, "fork-pin: "+skill.path+": "+f)
	}
	return out, nil
}

// checkPair loads a skill and its agent file and applies rules to each.
func checkPair(dir, skillFile, agentFile string, rules []scoutRule) (skill, agent *prompt, out []string, err error) {
	if skill, err = loadPrompt(dir, skillFile); err != nil {
		return nil, nil, nil, err
	}
	if agent, err = loadPrompt(dir, agentFile); err != nil {
		return nil, nil, nil, err
	}
	for _, p := range []*prompt{skill, agent} {
		for _, r := range rules {
			for _, f := range r.check(p) {
				out = append(out, r.name+": "+p.path+": "+f)
			}
		}
	}
	return skill, agent, out, nil
}

// maxPrompt caps a prompt file the rules read.
const maxPrompt = 1 << 20

func loadPrompt(dir, rel string) (*prompt, error) {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	fi, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if fi.Size() > maxPrompt {
		return nil, fmt.Errorf("%s: larger than %d bytes", p, maxPrompt)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	return parsePrompt(rel, b), nil
}

// surfaceOnly: every command in a shell fence runs the launcher's
// query-records or session-digest-read and nothing else: no pipe, list,
// redirection or substitution, no script path.
func surfaceOnly(p *prompt) []string {
	var out []string
	cmds := p.commands()
	if len(cmds) == 0 {
		return []string{"no fenced bash command at all"}
	}
	for _, c := range cmds {
		if !launcherRE().MatchString(c.text) {
			out = append(out, fmt.Sprintf("line %d: a fenced command that is not the launcher's query-records or session-digest-read: %s", c.line, c.text))
			continue
		}
		rest := slotRE().ReplaceAllString(launcherRE().ReplaceAllString(c.text, ""), "SLOT")
		rest = strings.ReplaceAll(rest, `"${CLAUDE_SESSION_ID}"`, "SID")
		if strings.ContainsAny(rest, "|;&<>`$") || strings.Contains(rest, ".sh") {
			out = append(out, fmt.Sprintf("line %d: the command does more than one retrieval call: %s", c.line, c.text))
		}
	}
	return out
}

func firstOf(p *prompt, flags ...string) *cmdLine {
	for _, c := range p.commands() {
		for _, f := range flags {
			if c.has(f) {
				return &c
			}
		}
	}
	return nil
}

// recallFirst: the first retrieval call is --recall (or --search, its
// companion in the same call), and it precedes every gap probe.
func recallFirst(p *prompt) []string {
	r := p.first("--recall")
	if r == nil {
		return []string{"no fenced --recall"}
	}
	var out []string
	if k := firstOf(p, gapFlags...); k == nil {
		out = append(out, "no fenced --keyword/--kind/--links-to gap probe")
	} else if k.seq < r.seq {
		out = append(out, fmt.Sprintf("line %d: a gap probe runs before the first --recall (line %d)", k.line, r.line))
	}
	if f := firstOf(p, retrievalFlags...); f != nil && !f.has("--recall") && !f.has("--search") {
		out = append(out, fmt.Sprintf("line %d: the first retrieval call is not --recall: %s", f.line, f.text))
	}
	return out
}

// listStoresFirst: --list-stores runs in the same Bash call as the first
// --recall, before any gap probe relies on it.
func listStoresFirst(p *prompt) []string {
	l := p.first("--list-stores")
	if l == nil {
		return []string{"no fenced --list-stores"}
	}
	var out []string
	if r := p.first("--recall"); r != nil && r.block != l.block {
		out = append(out, fmt.Sprintf("line %d: --list-stores is not in the same Bash call as the first --recall (line %d)", l.line, r.line))
	}
	if k := firstOf(p, gapFlags...); k != nil && k.seq < l.seq {
		out = append(out, fmt.Sprintf("line %d: a gap probe runs before --list-stores (line %d)", k.line, l.line))
	}
	return out
}

// catBatch: the full reads are one fenced --cat call, after the queries.
func catBatch(p *prompt) []string {
	var cats []cmdLine
	for _, c := range p.commands() {
		if c.has("--cat") {
			cats = append(cats, c)
		}
	}
	switch {
	case len(cats) == 0:
		return []string{"no fenced --cat batch read"}
	case len(cats) > 1:
		return []string{fmt.Sprintf("%d fenced --cat calls; the selection is read in one batch", len(cats))}
	}
	if r := p.first("--recall"); r != nil && cats[0].seq < r.seq {
		return []string{fmt.Sprintf("line %d: --cat runs before the first --recall", cats[0].line)}
	}
	return nil
}

// warmStart: the digest reader runs on ${CLAUDE_SESSION_ID} before the
// first --recall, a prior digest is framed as a starting point that never
// licenses a skipped search, and the output keeps established apart from new.
func warmStart(p *prompt) []string {
	var read *cmdLine
	want := ` session-digest-read --read "${CLAUDE_SESSION_ID}"`
	if p.path == ScoutAgentFile {
		want = ` session-digest-read --read "<session id>"` // the CLI expands no session id there
	}
	for _, c := range p.commands() {
		if strings.Contains(c.text, want) {
			read = &c
			break
		}
	}
	var out []string
	if read == nil {
		out = append(out, "no fenced"+want)
	} else if r := p.first("--recall"); r != nil && r.seq < read.seq {
		out = append(out, fmt.Sprintf("line %d: the warm read runs after the first --recall", read.line))
	}
	if p.paraMatching(re(`(?i)starting point`), re(`(?i)never [^.]*skip`)) == nil {
		out = append(out, "no clause framing a prior digest as a starting point that never licenses skipping a search")
	}
	if p.textBlockLine("ALREADY ESTABLISHED:") == "" || p.textBlockLine("NEWLY FOUND:") == "" {
		out = append(out, "the output shape does not keep ALREADY ESTABLISHED: apart from NEWLY FOUND:")
	}
	return out
}

// repoFirst: repository resolution (goal text, then this goal's context,
// then the working directory; never silently; no tool call) is stated
// before the first --recall, and the output carries a sourced REPO: line.
func repoFirst(p *prompt) []string {
	var out []string
	rp := p.paraMatching(re(`(?i)goal text[^.]*context[^.]*this goal[^.]*working directory`), re(`(?i)no (bash|tool) call`))
	switch r := p.first("--recall"); {
	case rp == nil:
		out = append(out, "no repo-resolution clause (goal text, then this goal's context, then the working directory; no tool call)")
	case r != nil && rp.line > r.line:
		out = append(out, fmt.Sprintf("line %d: repo resolution comes after the first --recall (line %d)", rp.line, r.line))
	}
	if p.paraMatching(re(`(?i)never assume the working directory silently`)) == nil {
		out = append(out, "no clause forbidding a silent working-directory assumption")
	}
	l := p.textBlockLine("REPO:")
	if l == "" || !strings.Contains(l, "goal text") || !strings.Contains(l, "context") || !strings.Contains(l, "working directory") {
		out = append(out, "the output shape has no REPO: line naming its source")
	}
	return out
}

// unreachable: the clause that reads an unreturned record with --cat and
// reports it carries its "never silently" prohibition in the same
// paragraph, and the output has an UNREACHABLE: section.
func unreachable(p *prompt) []string {
	var out []string
	cl := p.paraMatching(re(`UNREACHABLE`), re(`--cat`), re(`(?i)should have matched`))
	switch {
	case cl == nil:
		out = append(out, "no UNREACHABLE clause (read it with --cat, report the query that should have matched)")
	case !re(`(?i)never [^.]*silently`).MatchString(cl.text):
		out = append(out, fmt.Sprintf("line %d: the UNREACHABLE clause does not forbid working around a query miss silently", cl.line))
	}
	if p.textBlockLine("UNREACHABLE:") == "" {
		out = append(out, "the output shape has no UNREACHABLE: section")
	}
	return out
}

// budget: batching is the rule, with a stated call budget that, in the same
// paragraph, never justifies skipping a gap probe, a store or a follow-up read.
func budget(p *prompt) []string {
	b := p.paraMatching(re(`(?i)\b(\d+|two|three|four|five|six) bash calls`))
	switch {
	case b == nil:
		return []string{"no stated Bash-call budget"}
	case !re(`(?i)batch`).MatchString(b.text):
		return []string{fmt.Sprintf("line %d: the budget does not make batching the rule", b.line)}
	case !re(`(?i)never [^.]*skip[^.]*gap probe[^.]*store[^.]*follow-up read`).MatchString(b.text):
		return []string{fmt.Sprintf("line %d: the budget does not say it never justifies skipping a gap probe, a store or a follow-up read", b.line)}
	}
	return nil
}

// soleSurface: a boundary names query-records the only way to a record,
// and no sentence frames grep or file reads as the scout's own method.
func soleSurface(p *prompt) []string {
	var out []string
	if p.paraMatching(re(`query-records`), re(`(?i)only way`), re(`(?i)never use`)) == nil {
		out = append(out, "no boundary naming query-records the only way to reach a record")
	}
	for _, pa := range p.paras {
		if re(`(?i)\byour (own )?(greps?|reads|finds?)\b`).MatchString(pa.text) {
			out = append(out, fmt.Sprintf("line %d: frames grep or reads as the scout's own method", pa.line))
		}
	}
	return out
}

// outputShape: the output block has GOAL, GOVERNS, COMMANDS and TRAPS.
func outputShape(p *prompt) []string {
	var out []string
	for _, k := range []string{"GOAL:", "GOVERNS:", "COMMANDS", "TRAPS:"} {
		if p.textBlockLine(k) == "" {
			out = append(out, "the output shape has no "+k+" line")
		}
	}
	return out
}

// variables: every ${…} is one the CLI expands in that file (measured with
// Claude Code 2.1.332: a skill gets CLAUDE_PLUGIN_ROOT, CLAUDE_SKILL_DIR and
// CLAUDE_SESSION_ID; an agent file, CLAUDE_PLUGIN_ROOT only).
func variables(p *prompt, isSkill bool) []string {
	ok := map[string]bool{"CLAUDE_PLUGIN_ROOT": true, "CLAUDE_SESSION_ID": isSkill, "CLAUDE_SKILL_DIR": isSkill}
	var out []string
	for _, f := range p.blocks {
		for _, l := range f.lines {
			for _, m := range varRE().FindAllStringSubmatch(l, -1) {
				if !ok[m[1]] {
					out = append(out, fmt.Sprintf("line %d: ${%s} is not expanded by the CLI here", f.line, m[1]))
				}
			}
		}
	}
	for _, pa := range p.paras {
		for _, m := range varRE().FindAllStringSubmatch(pa.text, -1) {
			if !ok[m[1]] {
				out = append(out, fmt.Sprintf("line %d: ${%s} is not expanded by the CLI here", pa.line, m[1]))
			}
		}
	}
	return out
}

// parity: both files run the same commands, in the same order; the skill's
// expanded session id is the agent's <session id> slot.
func parity(a, b *prompt) []string {
	ac, bc := a.commands(), b.commands()
	for i := range ac {
		ac[i].text = strings.ReplaceAll(ac[i].text, `"${CLAUDE_SESSION_ID}"`, `"<session id>"`)
	}
	for i := 0; i < len(ac) || i < len(bc); i++ {
		switch {
		case i >= len(ac):
			return []string{fmt.Sprintf("%s runs a command %s does not: %s", b.path, a.path, bc[i].text)}
		case i >= len(bc):
			return []string{fmt.Sprintf("%s runs a command %s does not: %s", a.path, b.path, ac[i].text)}
		case ac[i].text != bc[i].text:
			return []string{fmt.Sprintf("command %d differs: %s has %q, %s has %q", i+1, a.path, ac[i].text, b.path, bc[i].text)}
		}
	}
	return nil
}

// agentBinding: the agent file grants Bash only and says plainly that it
// does not bind the fork.
func agentBinding(agent *prompt) []string {
	var out []string
	if t := parseFrontmatter([]byte("---\n" + agent.fm + "\n---\n")).Scalar("tools"); t != "Bash" {
		out = append(out, fmt.Sprintf("tools: is %q, not Bash alone", t))
	}
	if agent.paraMatching(re(`(?i)does not bind the (how-do-i )?fork`)) == nil {
		out = append(out, "does not say that it does not bind the how-do-i fork")
	}
	return out
}

// forkPin: the skill forks, names its agent, and pins the agent's model.
func forkPin(skill, agent *prompt, agentName string) []string {
	sf := parseFrontmatter([]byte("---\n" + skill.fm + "\n---\n"))
	am := parseFrontmatter([]byte("---\n" + agent.fm + "\n---\n")).Scalar("model")
	var out []string
	if sf.Scalar("context") != "fork" {
		out = append(out, "context: is not fork")
	}
	if sf.Scalar("agent") != agentName {
		out = append(out, fmt.Sprintf("agent: is %q, not %s", sf.Scalar("agent"), agentName))
	}
	if m := sf.Scalar("model"); m == "" || m != am {
		out = append(out, fmt.Sprintf("model: is %q, the agent's is %q", m, am))
	}
	return out
}

// CheckPrompts applies the rules of the plugin's own prompts: the scout's
// retrieval contract and the reviewer's evidence contract.
func CheckPrompts(dir string) ([]string, error) {
	out, err := CheckScoutPrompts(dir)
	if err != nil {
		return nil, err
	}
	more, err := CheckReviewPrompts(dir)
	if err != nil {
		return nil, err
	}
	return append(out, more...), nil
}

// The reviewer's prompt files: the one the am-i-done fork loads, and the
// agent file a direct spawn loads.
const (
	ReviewSkillFile = "skills/am-i-done/SKILL.md"
	ReviewAgentFile = "agents/work-reviewer.md"
)

// reviewRules apply to both reviewer prompt files.
var reviewRules = []scoutRule{
	{"review-evidence", func(p *prompt) []string {
		if p.paraMatching(re(`(?i)paired with the command[^.]*and the output[^.]*printed`), re(`no evidence shown`)) == nil {
			return []string{"no clause pairing every claim with its command and observed output (else \"no evidence shown\")"}
		}
		return nil
	}},
	{"review-unverified", func(p *prompt) []string {
		if p.paraMatching(re(`UNVERIFIED`), re(`(?i)exact command`)) == nil || p.textBlockLine("UNVERIFIED:") == "" {
			return []string{"no UNVERIFIED clause carrying the exact command that would settle it"}
		}
		return nil
	}},
	{"review-no-rounding", func(p *prompt) []string {
		if p.paraMatching(re(`(?i)never round`)) == nil {
			return []string{"no clause forbidding a result rounded up"}
		}
		return nil
	}},
}

// CheckReviewPrompts applies the evidence-contract rules to the reviewer's
// two prompt files under the plugin at dir.
func CheckReviewPrompts(dir string) ([]string, error) {
	skill, agent, out, err := checkPair(dir, ReviewSkillFile, ReviewAgentFile, reviewRules)
	if err != nil {
		return nil, err
	}
	if p := agent.paraMatching(re(`(?i)does not bind the (am-i-done )?fork`)); p == nil {
		out = append(out, "agent-binding: "+agent.path+": does not say that it does not bind the am-i-done fork")
	}
	// A cold read runs nothing: tools: [] gives a direct spawn no tool at all
	// (measured with 2.1.332; an absent tools: would grant every tool).
	if !re(`(?m)^tools:[ \t]*\[\][ \t]*$`).MatchString(agent.fm) {
		out = append(out, "agent-binding: "+agent.path+": tools: is not [] (the reviewer runs nothing)")
	}
	for _, f := range forkPin(skill, agent, "work-reviewer") {
		out = append(out, "fork-pin: "+skill.path+": "+f)
	}
	return out, nil
}
