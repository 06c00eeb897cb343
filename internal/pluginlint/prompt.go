package pluginlint

import (
	"regexp"
	"slices"
	"strings"
)

// A prompt is one Markdown prompt file split into what the rules read: its
// fenced blocks (with the language of their opening fence) and its prose
// paragraphs, each with the 1-based line it starts on.
type prompt struct {
	path   string
	blocks []fence
	paras  []para
	fm     string // the frontmatter text, without its --- lines
}

type fence struct {
	lang  string
	line  int      // line of the opening fence
	lines []string // the block's lines, continuation lines joined
}

type para struct {
	line int
	text string // the paragraph's lines joined by single spaces
}

// parsePrompt splits b. A fence is a line starting with ``` (after up to
// three spaces); it closes at the next such line. Paragraphs are runs of
// non-blank prose lines; a Markdown heading is a paragraph of its own.
func parsePrompt(path string, b []byte) *prompt {
	p := &prompt{path: path}
	lines := strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
	i := 0
	if len(lines) > 0 && strings.TrimSpace(lines[0]) == "---" {
		for j := 1; j < len(lines); j++ {
			if strings.TrimSpace(lines[j]) == "---" {
				p.fm = strings.Join(lines[1:j], "\n")
				i = j + 1
				break
			}
		}
	}
	var cur *para
	flush := func() {
		if cur != nil {
			p.paras = append(p.paras, *cur)
			cur = nil
		}
	}
	for ; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if lang, ok := strings.CutPrefix(t, "```"); ok {
			flush()
			f := fence{lang: strings.TrimSpace(lang), line: i + 1}
			cont := ""
			for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "```"); i++ {
				l := strings.TrimSpace(lines[i])
				if s, ok := strings.CutSuffix(l, `\`); ok {
					cont += s
					continue
				}
				f.lines = append(f.lines, cont+l)
				cont = ""
			}
			if cont != "" {
				f.lines = append(f.lines, cont)
			}
			p.blocks = append(p.blocks, f)
			continue
		}
		if t == "" || strings.HasPrefix(t, "#") {
			flush()
			if t != "" {
				p.paras = append(p.paras, para{line: i + 1, text: t})
			}
			continue
		}
		if cur == nil {
			cur = &para{line: i + 1, text: t}
		} else {
			cur.text += " " + t
		}
	}
	flush()
	return p
}

// shell reports whether a fence holds commands the model runs.
func (f fence) shell() bool { return f.lang == "bash" || f.lang == "sh" }

// commands are the non-blank, non-comment lines of the prompt's shell
// fences, in order, each with its fence.
func (p *prompt) commands() []cmdLine {
	var out []cmdLine
	for bi, f := range p.blocks {
		if !f.shell() {
			continue
		}
		for _, l := range f.lines {
			if l == "" || strings.HasPrefix(l, "#") {
				continue
			}
			out = append(out, cmdLine{seq: len(out), block: bi, line: f.line, text: l})
		}
	}
	return out
}

type cmdLine struct {
	seq   int // position among the prompt's commands
	block int // index into prompt.blocks
	line  int // line of the block's opening fence
	text  string
}

// has reports whether the command passes flag as a word of its own.
func (c cmdLine) has(flag string) bool {
	return slices.Contains(strings.Fields(c.text), flag)
}

// first is the first command passing flag, or nil.
func (p *prompt) first(flag string) *cmdLine {
	for _, c := range p.commands() {
		if c.has(flag) {
			return &c
		}
	}
	return nil
}

// paraMatching is the first paragraph every re matches, or nil.
func (p *prompt) paraMatching(res ...*regexp.Regexp) *para {
	for i := range p.paras {
		ok := true
		for _, re := range res {
			if !re.MatchString(p.paras[i].text) {
				ok = false
				break
			}
		}
		if ok {
			return &p.paras[i]
		}
	}
	return nil
}

// textBlockLine is the first line of a non-shell fence starting with
// prefix, or "".
func (p *prompt) textBlockLine(prefix string) string {
	for _, f := range p.blocks {
		if f.shell() {
			continue
		}
		for _, l := range f.lines {
			if strings.HasPrefix(l, prefix) {
				return l
			}
		}
	}
	return ""
}
