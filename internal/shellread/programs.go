package shellread

import (
	"strings"
)

// commandOK reports whether the program name run with the words args only
// reads. It is the one judgement of a command by name and words: callOK
// uses it, and so do the wrappers that run a command (env, xargs, nice,
// time). A word naming bash's network pseudo-files refuses any program.
func commandOK(name string, args []word) bool {
	for _, w := range args {
		if netPath(w) {
			return false
		}
	}
	if r, ok := rules[name]; ok {
		return r(args)
	}
	if strings.Contains(name, " ") {
		return false
	}
	s := spec(name)
	return s != nil && s.judge(args)
}

// specChecks are the operand rules of the programs whose operands can
// write or set state.
var specChecks map[string]func(p *parsed) bool // made by loadTables

func makeSpecChecks() map[string]func(p *parsed) bool {
	return map[string]func(p *parsed) bool{
		// a second operand is the output file
		"uniq": func(p *parsed) bool { return len(p.operands) < 2 && allKnown(p.operands) },
		// an operand other than +FORMAT sets the clock (date MMDDhhmm)
		"date": func(p *parsed) bool {
			for _, w := range p.operands {
				if !w.known() || !strings.HasPrefix(w.text, "+") {
					return false
				}
			}
			return true
		},
		// an operand sets the host name, or with -y the NIS domain
		"hostname": func(p *parsed) bool { return len(p.operands) == 0 },
		"getent":   getentOK,
	}
}

// getentLocal reports the databases getent answers from local files on a
// default system; hosts and the like ask DNS, which carries the key to
// whoever serves the name (a variable leaked through a lookup).
func getentLocal(db string) bool {
	switch db {
	case "passwd", "group", "shadow", "gshadow", "services", "protocols", "rpc", "ethers", "shells", "aliases", "initgroups":
		return true
	}
	return false
}

// getentHosts reports the databases that resolve names through the resolver.
func getentHosts(db string) bool {
	switch db {
	case "hosts", "ahosts", "ahostsv4", "ahostsv6":
		return true
	}
	return false
}

func getentOK(p *parsed) bool {
	if len(p.operands) == 0 || !p.operands[0].known() {
		return false
	}
	db := p.operands[0].text
	switch {
	case getentLocal(db):
		return true // a key goes to the local files (or the directory service)
	case getentHosts(db):
		// Even localhost: a resolver may ask DNS before or beside the hosts
		// file (the oracle saw queries for it), and the key reaches it.
		return false
	}
	return false
}

// printfOK judges the printf builtin of bash and zsh: no -v (it assigns,
// evaluating an array subscript), a known format, no %n (bash assigns the
// count so far to the next argument, PATH too), and, when the format holds
// a numeric conversion or a "*" (zsh evaluates those arguments as
// arithmetic, which runs substitutions in a subscript), only number
// literals for arguments.
func printfOK(args []word) bool {
	if len(args) == 0 {
		return true
	}
	ended := args[0].known() && args[0].text == "--"
	if ended {
		args = args[1:]
		if len(args) == 0 {
			return true
		}
	}
	f := args[0]
	if !f.known() || !ended && strings.HasPrefix(f.text, "-") {
		return false
	}
	numeric := false
	t := f.text
	for i := 0; i < len(t); i++ {
		if t[i] != '%' {
			continue
		}
		i++
		for i < len(t) && strings.IndexByte("#0- +'123456789.$*lhLqjzt", t[i]) >= 0 {
			if t[i] == '*' {
				numeric = true
			}
			i++
		}
		if i >= len(t) {
			break
		}
		switch c := t[i]; {
		case c == 'n':
			return false
		case strings.IndexByte("diouxXeEfFgGaAc", c) >= 0:
			numeric = true
		case c == '(': // %(fmt)T: bash's strftime, its argument a number
			numeric = true
		}
	}
	if !numeric {
		return true
	}
	for _, a := range args[1:] {
		if !a.known() || !numberLiteral(a.text) {
			return false
		}
	}
	return true
}

// numberLiteral: an optional sign, then decimal digits with an optional
// fraction and exponent, or 0x and hex digits.
func numberLiteral(s string) bool {
	s = strings.TrimLeft(s, "+-")
	if h, ok := strings.CutPrefix(strings.ToLower(s), "0x"); ok {
		return h != "" && strings.Trim(h, "0123456789abcdef") == ""
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
	if hasExp && (strings.TrimLeft(exp, "+-") == "" || strings.Trim(strings.TrimLeft(exp, "+-"), "0123456789") != "") {
		return false
	}
	ip, fp, _ := strings.Cut(mant, ".")
	return ip+fp != "" && strings.Trim(ip+fp, "0123456789") == ""
}

// xxdOK judges xxd's own parser: options while a word starts with "-"
// (a value letter takes the rest of the word, or the next word when the
// word is the letter alone), then at most one operand: a second is the
// output file, "-" included, and the first operand ends the options, so
// "xxd IN -OUT" writes -OUT.
func xxdOK(args []word) bool {
	i := 0
	for ; i < len(args); i++ {
		w := args[i]
		if !w.known() {
			return false
		}
		t := w.text
		if t == "--" {
			i++
			break
		}
		if len(t) < 2 || t[0] != '-' {
			break
		}
		c := t[1]
		switch {
		case strings.IndexByte("abCdeEhipruv", c) >= 0:
		case strings.IndexByte("cglnosR", c) >= 0:
			if len(t) == 2 {
				i++
				if i >= len(args) || !args[i].known() {
					return false
				}
			}
		default:
			return false
		}
	}
	for _, w := range args[i:] {
		if !w.known() {
			return false
		}
	}
	return len(args)-i < 2
}

// allKnown: every word's text is known (a glob or expansion may become
// several words, or none).
func allKnown(ws []word) bool {
	for _, w := range ws {
		if !w.known() {
			return false
		}
	}
	return true
}
