package e2e

import (
	"regexp"
	"strings"
)

// skillBase starts the first message Claude Code 2.1.332 sends a forked
// skill's subagent; the skill's body, as the CLI expanded it, follows.
const skillBase = "Base directory for this skill: "

// PlayForksLiterally makes the mock play every forked skill as a literal
// executor of the skill's body: it runs each fenced bash block in order,
// one Bash call per block, filling only the <slot> placeholders a model
// fills, and then answers with a digest built from what the blocks printed.
func (m *Mock) PlayForksLiterally() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.literal = true
}

// skillFork reports whether req comes from a forked skill's subagent.
func skillFork(req request) bool {
	return len(req.Messages) > 0 && strings.Contains(firstText(req), skillBase)
}

// firstText is the text of the request's first message.
func firstText(req request) string {
	var b strings.Builder
	for _, bl := range blocks(req.Messages[0].Content) {
		if bl.Type == "text" {
			b.WriteString(bl.Text)
			b.WriteString("\n")
		}
	}
	return b.String()
}

var (
	fenceRE  = regexp.MustCompile("(?ms)^```(?:bash|sh)\\n(.*?)^```")
	goalRE   = regexp.MustCompile(`(?m)^GOAL: (.+)$`)
	surveyRE = regexp.MustCompile(`(?m)^(\S+\.md) — `)
	catRE    = regexp.MustCompile(`(?m)^==> (.+) <==$`)
	slotRE   = regexp.MustCompile(`<[a-z][a-z -]*>`)
	wordRE   = regexp.MustCompile(`[a-z0-9][a-z0-9-]{2,}`)
)

// literalReply is the executor's next step for the fork that sent req.
func (m *Mock) literalReply(req request) Reply {
	body := firstText(req)
	goal := ""
	if g := goalRE.FindStringSubmatch(body); g != nil {
		goal = strings.TrimSpace(g[1])
	}
	var calls int
	var outputs []string
	for _, msg := range req.Messages {
		for _, b := range blocks(msg.Content) {
			switch b.Type {
			case "tool_use":
				calls++
			case "tool_result":
				var text string
				for _, c := range blocks(b.Content) {
					text += c.Text
				}
				outputs = append(outputs, text)
			}
		}
	}
	// Replay the blocks: each one that fills in is one Bash call; the
	// first not yet made is the next step.
	done := 0
	for _, f := range fenceRE.FindAllStringSubmatch(body, -1) {
		cmd := fill(f[1], goal, outputs[:min(done, len(outputs))])
		if cmd == "" {
			continue
		}
		if done < calls {
			done++
			continue
		}
		m.mu.Lock()
		m.forkRuns = append(m.forkRuns, cmd)
		m.mu.Unlock()
		return Reply{Tool: "Bash", Input: map[string]any{"command": cmd, "description": "run the skill's next block"}}
	}
	return Reply{Text: digest(goal, body, outputs)}
}

// goalWords are the goal's words of three or more letters, at most four.
func goalWords(goal string) []string {
	ws := wordRE.FindAllString(strings.ToLower(goal), -1)
	return ws[:min(len(ws), 4)]
}

// paths are the record paths the outputs' survey lines named, once each.
func paths(outputs []string) []string {
	var ps []string
	for _, o := range outputs {
		for _, m := range surveyRE.FindAllStringSubmatch(o, -1) {
			if !contains(ps, m[1]) {
				ps = append(ps, m[1])
			}
		}
	}
	return ps
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// fill fills a block's slots as a model following the skill would; a line
// whose slot has nothing to fill it is dropped, as the skill says. It
// returns "" when no line is left.
func fill(block, goal string, outputs []string) string {
	words := goalWords(goal)
	ps := paths(outputs)
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(block), "\n") {
		ok := true
		l = slotRE.ReplaceAllStringFunc(l, func(slot string) string {
			switch {
			case slot == "<goal words>" && len(words) > 0:
				return strings.Join(words, " ")
			case slot == "<word>" && len(words) > 0:
				return words[0]
			case slot == "<kind>":
				return "decision"
			case slot == "<trusted record id>" && len(ps) > 0:
				return strings.TrimSuffix(ps[0][strings.LastIndex(ps[0], "/")+1:], ".md")
			case slot == "<path>" && len(ps) > 0:
				return "\x00"
			}
			ok = false
			return slot
		})
		if !ok {
			continue
		}
		// <path> <path>: the whole selection, once.
		if strings.Contains(l, "\x00") {
			l = strings.Replace(l, "\x00", strings.Join(ps, " "), 1)
			l = strings.ReplaceAll(strings.ReplaceAll(l, " \x00", ""), "\x00", "")
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "\n")
}

// digest is the executor's answer, in the output shape the skill asks for,
// built from what the blocks printed. A record is established when the warm
// read (the first output) already named it.
func digest(goal, body string, outputs []string) string {
	if strings.Contains(body, "REPORT:") {
		return "VERDICT: DONE\nPROVEN:\n  - the report's claims, each with its command and output\nNO EVIDENCE SHOWN: none\nUNVERIFIED: none\nFAILED: none\nFOLLOW-UPS: none"
	}
	var read []string
	warm := ""
	for i, o := range outputs {
		if i == 0 {
			warm = o
		}
		for _, m := range catRE.FindAllStringSubmatch(o, -1) {
			read = append(read, m[1])
		}
	}
	var b strings.Builder
	b.WriteString("GOAL: " + goal + "\nREPO: not repo-scoped\nGOVERNS:\n")
	var est, fresh []string
	for _, p := range read {
		label := "new"
		if strings.Contains(warm, p) {
			label, est = "established", append(est, p)
		} else {
			fresh = append(fresh, p)
		}
		b.WriteString("  - " + p + " [" + label + "]: read in full with --cat\n")
	}
	b.WriteString("COMMANDS (verbatim):\n  $ touch marker\nTRAPS:\n")
	for _, o := range outputs {
		for _, l := range strings.Split(o, "\n") {
			if strings.HasPrefix(l, "{") {
				b.WriteString("  - " + l + "\n")
			}
		}
	}
	b.WriteString("ALREADY ESTABLISHED: " + orNone(est) + "\nNEWLY FOUND: " + orNone(fresh) + "\nUNREACHABLE: none\n")
	return b.String()
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, " ")
}
