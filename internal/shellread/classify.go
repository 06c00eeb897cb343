package shellread

import (
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// ReadOnly reports whether the shell command cmd is read-only. It fails
// closed: a parse error, an empty command, a comment, a negation, a compound
// command (subshell, block, function, if, loop, test, arithmetic,
// declaration), an assignment, a command or process substitution, an
// expansion with side effects, an output redirection anywhere but
// /dev/null, a command name that is not a bare listed name, or a listed
// command in a writing mode all make it false. Separators (; && || | |& &
// and newlines) join statements that are judged one by one.
func ReadOnly(cmd string) bool {
	if strings.IndexByte(cmd, 0) >= 0 {
		return false
	}
	parser := parsers.Get().(*syntax.Parser)
	f, err := parser.Parse(strings.NewReader(cmd), "")
	parsers.Put(parser)
	if err != nil || len(f.Stmts) == 0 || len(f.Last) > 0 {
		return false
	}
	for _, s := range f.Stmts {
		if !stmtOK(s) {
			return false
		}
	}
	return true
}

// parsers reuses Bash parsers (a Parser resets itself on every Parse).
var parsers = sync.Pool{New: func() any {
	return syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true))
}}

func stmtOK(s *syntax.Stmt) bool {
	if s == nil || len(s.Comments) > 0 || s.Negated || s.Coprocess || s.Disown {
		return false
	}
	for _, r := range s.Redirs {
		if !redirOK(r) {
			return false
		}
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		return callOK(c)
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.AndStmt, syntax.OrStmt, syntax.Pipe, syntax.PipeAll:
			return stmtOK(c.X) && stmtOK(c.Y)
		}
	}
	return false
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
	case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return true
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll:
		return w.known() && w.text == devNull
	case syntax.DplOut: // N>&M: only onto stdout or stderr (or /dev/null)
		return w.known() && (w.text == "1" || w.text == "2" || w.text == devNull)
	case syntax.DplIn: // N<&M or N<&-: input only
		return w.known() && (isDigits(w.text) || w.text == "-")
	}
	return false // <> opens for writing; zsh forms
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
	rule, listed := rules[name]
	if !listed {
		return false
	}
	args := make([]word, 0, len(c.Args)-1)
	for _, a := range c.Args[1:] {
		w, ok := evalWord(a)
		if !ok {
			return false
		}
		args = append(args, w)
	}
	return rule(args)
}

// commandName returns the command name when it is one plain literal: no
// quotes, escapes, expansions, globs or slashes.
func commandName(w *syntax.Word) (string, bool) {
	name := w.Lit()
	if name == "" || strings.ContainsAny(name, "\\/*?[]{}~=") {
		return "", false
	}
	return name, true
}

// word is a command word after quote removal.
type word struct {
	text string // the literal text, quotes removed (expansions contribute nothing)
	// dynamic: an expansion whose value is not known until run time.
	dynamic bool
	// glob: an unquoted pattern or brace character; the shell may turn the
	// word into several words, or into other text.
	glob bool
	// lead: the word's first character is unknown (an expansion or pattern
	// at its start), so it may expand to an option.
	lead bool
}

// known reports whether the word's run-time text is exactly text.
func (w word) known() bool { return !w.dynamic && !w.glob }

// option reports whether the word is, or may expand to, an option.
func (w word) option() bool { return w.lead || len(w.text) > 1 && w.text[0] == '-' }

// evalWord removes quotes from w. It reports false for a word holding a
// command or process substitution or an expansion with side effects.
func evalWord(w *syntax.Word) (word, bool) {
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
				if strings.IndexByte("*?[{", c) >= 0 {
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
			if !partsSafe(p.Parts) {
				return word{}, false
			}
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
		case *syntax.ParamExp, *syntax.ArithmExp:
			if !partsSafe([]syntax.WordPart{p}) {
				return word{}, false
			}
			out.dynamic = true
			out.lead = out.lead || start
		case *syntax.ExtGlob, *syntax.BraceExp:
			out.glob = true
			out.lead = out.lead || start
		default: // command and process substitutions
			return word{}, false
		}
	}
	out.text = b.String()
	return out, true
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
		case *syntax.Lit, *syntax.SglQuoted, *syntax.ExtGlob, *syntax.BraceExp:
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
