package shellread

import (
	"path"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// MaxCommand is the longest command judged (64 KiB); a longer one is not
// read-only, decided before any parse.
const MaxCommand = 64 << 10

// MaxOpeners bounds the nesting depth before a parse: a command holding
// more than 256 openers (each "(", "{", "[" or "`" byte, counted anywhere,
// quoted or not, an upper bound on how deep the parser can recurse) is not
// read-only.
const MaxOpeners = 256

// maxFields caps the words one command word may brace-expand to.
const maxFields = 64

// ReadOnly reports whether the shell command cmd is read-only in both Bash
// and zsh. It fails closed: a command over [MaxCommand] or [MaxOpeners], a
// parse error in either dialect, an empty command, a negation, a compound
// command (subshell, block, function, if, loop, test, arithmetic,
// declaration), an assignment, a command or process substitution, an
// expansion with side effects, an extglob or zsh glob qualifier, an output
// redirection anywhere but /dev/null, a command name that is not a bare
// listed name, or a listed command outside the grammar its rule lists all
// make it false. A word whose expansion is not known statically (a glob, a
// parameter or arithmetic expansion, a brace sequence) may not reach a
// command whose verdict depends on its arguments; a brace list is expanded
// and its words judged. Separators (; && || | |& & and newlines) join
// statements that are judged one by one; comments are not commands.
func ReadOnly(cmd string) bool {
	ok, _ := Judge(cmd)
	return ok
}

// Judge is [ReadOnly] with the reason for a refusal that the person reading
// the gate's denial can act on: a byte sequence where the parser and the
// real shells are known or suspected to read the command differently (see
// lexical), or a parse that does not print back to the command's own text.
// Other refusals (an unlisted program, a write) come with an empty reason.
func Judge(cmd string) (bool, string) {
	if len(cmd) > MaxCommand {
		return false, ""
	}
	if ok, why := lexical(cmd); !ok {
		return false, why
	}
	if openers(cmd) > MaxOpeners {
		return false, ""
	}
	loadTables()
	loadShellTables()
	for _, pool := range []*sync.Pool{&bashParsers, &zshParsers} {
		if ok, why := readOnlyIn(pool, cmd); !ok {
			return false, why
		}
	}
	return true, ""
}

func openers(cmd string) int {
	n := 0
	for i := 0; i < len(cmd); i++ {
		switch cmd[i] {
		case '(', '{', '[', '`':
			n++
		}
	}
	return n
}

func readOnlyIn(pool *sync.Pool, cmd string) (bool, string) {
	parser := pool.Get().(*syntax.Parser)
	f, err := parser.Parse(strings.NewReader(cmd), "")
	pool.Put(parser)
	if err != nil || len(f.Stmts) == 0 {
		return false, ""
	}
	if !printsBack(f, cmd) {
		return false, whyPrintBack
	}
	for _, s := range f.Stmts {
		if !stmtOK(s) {
			return false, ""
		}
	}
	return true, ""
}

// bashParsers and zshParsers reuse parsers (a Parser resets itself on every
// Parse).
var (
	bashParsers = sync.Pool{New: func() any {
		return syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true))
	}}
	zshParsers = sync.Pool{New: func() any {
		return syntax.NewParser(syntax.Variant(syntax.LangZsh), syntax.KeepComments(true))
	}}
)

func stmtOK(s *syntax.Stmt) bool {
	if s == nil || s.Negated || s.Coprocess || s.Disown {
		return false
	}
	for _, r := range s.Redirs {
		if !redirOK(r) {
			return false
		}
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		return simpleOK(c)
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.AndStmt, syntax.OrStmt, syntax.Pipe, syntax.PipeAll:
			return stmtOK(c.X) && stmtOK(c.Y)
		}
		return false
	}
	ok, _ := structOK(s.Cmd)
	return ok
}

// devNull is the one file an output redirection may name.
const devNull = "/dev/null"

func redirOK(r *syntax.Redirect) bool {
	if r.N != nil && !isDigits(r.N.Value) { // {var}> assigns a variable
		return false
	}
	if r.Hdoc != nil && !partsSafe(r.Hdoc.Parts) {
		return false
	}
	w, ok := evalWord(r.Word)
	if !ok {
		return false
	}
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return true
	case syntax.RdrIn: // bash opens a socket for /dev/tcp/… and /dev/udp/…
		return w.known() && !socketPath(w.text)
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll:
		return w.known() && w.text == devNull
	case syntax.DplOut: // N>&M: only onto stdout or stderr (or /dev/null)
		return w.known() && (w.text == "1" || w.text == "2" || w.text == devNull)
	case syntax.DplIn: // N<&M or N<&-: input only
		return w.known() && (isDigits(w.text) || w.text == "-")
	}
	return false // <> opens for writing; zsh forms
}

// socketPath reports a path bash reads as a network connection (/dev/tcp/…
// or /dev/udp/…), in any spelling that cleans to one.
func socketPath(p string) bool {
	c := path.Clean("/" + p)
	return strings.HasPrefix(c, "/dev/tcp") || strings.HasPrefix(c, "/dev/udp")
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func callOK(c *syntax.CallExpr) bool {
	if len(c.Assigns) > 0 || len(c.Args) == 0 {
		return false
	}
	name, ok := commandName(c.Args[0])
	if !ok {
		return false
	}
	if !listed(name) {
		return false
	}
	args := make([]word, 0, len(c.Args)-1)
	for _, a := range c.Args[1:] {
		ws, ok := fields(a)
		if !ok {
			return false
		}
		args = append(args, ws...)
	}
	return commandOK(name, args)
}

// commandName returns the command name when it is one plain literal: no
// quotes, escapes, expansions, globs or slashes.
func commandName(w *syntax.Word) (string, bool) {
	name := w.Lit()
	if name == "" || strings.ContainsAny(name, "\\/*?[]{}~=()#") {
		return "", false
	}
	return name, true
}

// word is a command word after brace expansion and quote removal.
type word struct {
	text string // the literal text, quotes removed (expansions contribute nothing)
	// dynamic: an expansion whose value is not known until run time.
	dynamic bool
	// glob: an unquoted pattern character or a brace sequence; the shell
	// may turn the word into several words, or into other text.
	glob bool
	// lead: the word's first character is unknown (an expansion or pattern
	// at its start, or an unquoted expansion that bash splits into several
	// words), so it may expand to an option.
	lead bool
}

// known reports whether the word's run-time text is exactly text.
func (w word) known() bool { return !w.dynamic && !w.glob }

// option reports whether the word is, or may expand to, an option: "-"
// followed by anything, known or not, or an unknown first character.
func (w word) option() bool {
	return w.lead || strings.HasPrefix(w.text, "-") && (len(w.text) > 1 || !w.known())
}

// evalWord judges a word that must stay one word (a redirection target).
func evalWord(w *syntax.Word) (word, bool) {
	ws, ok := fields(w)
	if !ok || len(ws) != 1 {
		return word{}, false
	}
	return ws[0], true
}

// fields returns the words w becomes: brace lists expanded (at most
// maxFields words), quotes removed. It reports false for a word holding a
// brace sequence other than {N..M} over plain decimal numbers or {x..y}
// over letters of one case (those are expanded like lists), a command or process substitution, an expansion with side effects, an
// extglob or an unquoted parenthesis (a zsh glob qualifier can run code),
// or a tilde form other than ~, ~/… and ~name.
func fields(w *syntax.Word) ([]word, bool) {
	if !partsSafe(w.Parts) || !tildeOK(w) {
		return nil, false
	}
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.ExtGlob:
			return nil, false
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "()") {
				return nil, false
			}
		}
	}
	if !syntax.SplitBraces(w) {
		return []word{fieldOf(w)}, true
	}
	plain, seq := sequences(w)
	if !plain { // a sequence the shells may expand differently
		return nil, false
	}
	var out []word
	for ew, err := range expand.BracesSeq(nil, w) {
		if err != nil || len(out) == maxFields {
			return nil, false
		}
		f := fieldOf(ew)
		if seq && strings.HasPrefix(f.text, "-") { // a sequence never builds an option
			return nil, false
		}
		out = append(out, f)
	}
	return out, true
}

// sequences reports whether every brace sequence in w is one both shells
// expand alike (plain: two plain decimal numbers, no sign or leading zero,
// or two letters of one case, with no step), and whether w holds any.
func sequences(w *syntax.Word) (plain, any bool) {
	plain = true
	for _, p := range w.Parts {
		b, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		if b.Sequence {
			any = true
			if len(b.Elems) != 2 || !seqEnds(b.Elems[0].Lit(), b.Elems[1].Lit()) {
				plain = false
			}
			continue
		}
		for _, e := range b.Elems {
			p, a := sequences(e)
			plain, any = plain && p, any || a
		}
	}
	return plain, any
}

func seqEnds(a, b string) bool {
	plainNum := func(s string) bool { return isDigits(s) && (s == "0" || s[0] != '0') && len(s) <= 6 }
	if plainNum(a) && plainNum(b) {
		return true
	}
	if len(a) != 1 || len(b) != 1 {
		return false
	}
	lower := func(c byte) bool { return 'a' <= c && c <= 'z' }
	upper := func(c byte) bool { return 'A' <= c && c <= 'Z' }
	return lower(a[0]) && lower(b[0]) || upper(a[0]) && upper(b[0])
}

// tildeOK accepts no tilde, "~", "~/…" and "~name[/…]" at the word's start
// (zsh's ~[…] calls a function, and ~+ ~- ~N read the directory stack).
func tildeOK(w *syntax.Word) bool {
	if len(w.Parts) == 0 {
		return true
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok || !strings.HasPrefix(lit.Value, "~") {
		return true
	}
	rest := lit.Value[1:]
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		rest = rest[:i]
	} else if len(w.Parts) > 1 {
		return false // ~"x" and the like
	}
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return rest == "" || rest[0] != '-' && (rest[0] < '0' || rest[0] > '9')
}

// fieldOf removes quotes from a word already free of brace expansions.
func fieldOf(w *syntax.Word) word {
	var out word
	var b strings.Builder
	for i, p := range w.Parts {
		start := i == 0
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			for j := 0; j < len(v); j++ {
				c := v[j]
				if c == '\\' && j+1 < len(v) {
					j++
					b.WriteByte(v[j])
					continue
				}
				if strings.IndexByte("*?[", c) >= 0 {
					out.glob = true
					if start && j == 0 {
						out.lead = true
					}
				}
				b.WriteByte(c)
			}
		case *syntax.SglQuoted:
			if p.Dollar { // $'…' escapes: judged as unknown text
				out.dynamic = true
				out.lead = out.lead || start
				continue
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				out.dynamic = true
				out.lead = out.lead || start
				continue
			}
			for j, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
					b.WriteString(unescapeDouble(q.Value))
				default:
					out.dynamic = true
					out.lead = out.lead || start && j == 0
				}
			}
		default: // unquoted parameter or arithmetic expansion: split into words
			out.dynamic = true
			out.lead = true
		}
	}
	out.text = b.String()
	return out
}

// unescapeDouble removes the backslashes that quote $ ` " \ or a newline
// inside double quotes.
func unescapeDouble(v string) string {
	if strings.IndexByte(v, '\\') < 0 {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) && strings.IndexByte("$`\"\\\n", v[i+1]) >= 0 {
			i++
			if v[i] == '\n' {
				continue
			}
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// partsSafe reports whether word parts expand without side effects: no
// command or process substitution, parameter expansions of a plain name
// only, arithmetic on number literals only.
func partsSafe(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			if !partsSafe(p.Parts) {
				return false
			}
		case *syntax.ParamExp:
			if !plainParam(p) {
				return false
			}
		case *syntax.ArithmExp:
			if !arithmSafe(p.X) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// plainParam reports $name or ${name} with no operator: reading a variable
// changes nothing. (Indexes, defaults that assign, substitutions and the
// like are refused.)
func plainParam(p *syntax.ParamExp) bool {
	return p.Param != nil && p.Flags == nil && !p.Excl && !p.Length && !p.Width && !p.IsSet &&
		p.Split == syntax.OptUnset && p.GlobSubst == syntax.OptUnset && p.RcExpand == syntax.OptUnset &&
		p.NestedParam == nil && p.Index == nil && len(p.Modifiers) == 0 && p.Slice == nil &&
		p.Repl == nil && p.Names == 0 && p.Exp == nil
}

// arithmSafe accepts arithmetic over number literals with operators that
// assign nothing. A variable name is refused: bash evaluates its value as a
// further expression, which can run a command.
func arithmSafe(x syntax.ArithmExpr) bool {
	switch x := x.(type) {
	case nil:
		return true
	case *syntax.BinaryArithm:
		switch x.Op {
		case syntax.Add, syntax.Sub, syntax.Mul, syntax.Quo, syntax.Rem, syntax.Pow,
			syntax.Eql, syntax.Gtr, syntax.Lss, syntax.Neq, syntax.Leq, syntax.Geq,
			syntax.And, syntax.Or, syntax.Xor, syntax.Shr, syntax.Shl,
			syntax.AndArit, syntax.OrArit, syntax.Comma, syntax.TernQuest, syntax.TernColon:
			return arithmSafe(x.X) && arithmSafe(x.Y)
		}
		return false
	case *syntax.UnaryArithm:
		switch x.Op {
		case syntax.Not, syntax.BitNegation, syntax.Plus, syntax.Minus:
			return arithmSafe(x.X)
		}
		return false
	case *syntax.ParenArithm:
		return arithmSafe(x.X)
	case *syntax.Word:
		lit := x.Lit()
		if lit == "" || lit[0] < '0' || lit[0] > '9' {
			return false
		}
		for i := 0; i < len(lit); i++ {
			c := lit[i]
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '#' || c == '_' || c == '@') {
				return false
			}
		}
		return true
	}
	return false
}
