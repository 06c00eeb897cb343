package oracle

import (
	"strings"
)

// A mutable program is one whose reading form the mutation generators
// rewrite the way an adversary talks past a wrong option grammar: "--"
// given to a value-taking option, a reading letter clustered with a
// writing one, a writing long option abbreviated, and options moved after
// the operands.
type mutable struct {
	cmd      string   // the program and any subcommand: "git log"
	valued   []string // reading options that take a value: "-T ." (the value after a space)
	flags    string   // reading short flags
	writes   []string // writing options with their value: "-o OUT", "--output=OUT", "-p"
	operands []string
}

var mutables = []mutable{
	{cmd: "sort", valued: ws("-T .|-k 2|-t ,|-S 1M|--key 1|--temporary-directory .|--field-separator ,"), flags: "rnufb",
		writes: ws("-o OUT|--output=OUT|--compress-program=touch"), operands: ws("f|n")},
	{cmd: "rg", valued: ws("-e a|-g *|-m 1|-t txt|--regexp a|--glob *"), flags: "nilc",
		writes: ws("--pre=touch|--hostname-bin=touch|--pre touch"), operands: ws("a .|a f")},
	{cmd: "git log", valued: ws("--decorate-refs x|--grep x|--author x|-n 1|--format %H|--since 1.day"), flags: "p",
		writes: ws("--output=OUT|--output OUT"), operands: ws("HEAD|-1")},
	{cmd: "git diff", valued: ws("--stat-width 10|-U 1|--relative sub|--anchored x"), flags: "pR",
		writes: ws("--output=OUT|--ext-diff"), operands: ws("HEAD|b1")},
	{cmd: "git config", valued: ws("--file .git/config|--type bool|--default x"),
		writes: ws("core.fsmonitor 'touch F' --get|core.x y --get|--add core.x y|core.x y")},
	{cmd: "tree", valued: ws("-L 1|-P *|-I x|--charset ascii"), flags: "adf",
		writes: ws("-o OUT|-R -H ."), operands: ws(".|sub")},
	{cmd: "journalctl", valued: ws("-n 1|-u x|-t x|-p 3|-o short|--since today|-b 0"), flags: "rqk",
		writes: ws("--cursor-file=OUT|--cursor-file OUT")},
	{cmd: "file", valued: ws("-m /dev/null|-F :|-e ascii"), flags: "bLi", writes: ws("-p|--preserve-date|-C"), operands: ws("f|g")},
	{cmd: "uniq", valued: ws("-f 1|-s 1|-w 2"), flags: "cdui", writes: ws("OUT"), operands: ws("f")},
	{cmd: "xxd", valued: ws("-c 4|-l 8|-s 1|-g 1"), flags: "pu", writes: ws("OUT|-OUT"), operands: ws("f")},
	{cmd: "tar", valued: ws("-f a.tar|-C sub|--file a.tar"), flags: "tv",
		writes: ws("--to-command=touch|-x|--index-file=OUT|-cf OUT"), operands: ws("f")},
	{cmd: "fdfind", valued: ws("-e hex|-t f|-d 1|-E x"), flags: "HIs", writes: ws("-x touch|-X touch|--exec touch|--exec-batch touch")},
	{cmd: "less", valued: ws("-x 4|-b 1|-P x"), flags: "NSRX", writes: ws("-o OUT|-O OUT|--log-file=OUT"), operands: ws("f")},
	{cmd: "xargs sort", valued: ws("-T .|-k 1"), flags: "rn", writes: ws("-o OUT|--output=OUT")},
	{cmd: "env sort", valued: ws("-T .|-k 1"), flags: "rn", writes: ws("-o OUT|--output=OUT"), operands: ws("f")},
	{cmd: "nice sort", valued: ws("-T .|-k 1"), flags: "rn", writes: ws("-o OUT|--output=OUT"), operands: ws("f")},
}

// mutate returns one mutated command: a reading form of a mutable
// program, rewritten by one of the adversary's moves.
func (g *gen) mutate() string {
	m := mutables[g.r.IntN(len(mutables))]
	op := ""
	if len(m.operands) > 0 {
		op = " " + g.pick(m.operands)
	}
	w := ""
	if len(m.writes) > 0 {
		w = g.pick(m.writes)
	}
	switch g.r.IntN(6) {
	case 0: // "--" after a value-taking option
		if len(m.valued) > 0 {
			name, _, _ := strings.Cut(g.pick(m.valued), " ")
			return m.cmd + " " + name + " -- " + w + op
		}
	case 1: // a reading letter clustered with the writing one
		if len(m.flags) > 0 && strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && g.chance(0.5) {
			f := m.flags[g.r.IntN(len(m.flags))]
			return m.cmd + " -" + string(f) + w[1:] + op
		}
		if len(m.valued) > 0 && strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") {
			v := g.pick(m.valued)
			name, val, _ := strings.Cut(v, " ")
			if len(name) == 2 { // -Lo 1 OUT: each letter takes the next word
				wl, wv, _ := strings.Cut(w, " ")
				return m.cmd + " " + name + wl[1:] + " " + val + " " + wv + op
			}
		}
	case 2: // an abbreviated long option
		if strings.HasPrefix(w, "--") {
			name, val, hasVal := strings.Cut(w[2:], "=")
			if len(name) > 3 {
				name = name[:3+g.r.IntN(len(name)-3)]
			}
			if hasVal {
				return m.cmd + " --" + name + "=" + val + op
			}
			return m.cmd + " --" + name + op
		}
	case 3: // options after the operands
		return m.cmd + op + " " + w
	case 4: // a reading value option, then the write, then operands
		if len(m.valued) > 0 {
			return m.cmd + " " + g.pick(m.valued) + " " + w + op
		}
	}
	// the reading form alone: it must stay allowed and change nothing
	if len(m.valued) > 0 {
		return m.cmd + " " + g.pick(m.valued) + op
	}
	return m.cmd + op
}
