package shellread

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// structOK judges the compound commands the reader accepts: if, for (over
// a word list, with a plain loop variable), while and until, whose
// conditions and bodies are read-only statements, and [[ … ]] over a fixed
// set of operators. It reports handled false for any other command.
func structOK(cmd syntax.Command) (ok, handled bool) {
	switch c := cmd.(type) {
	case *syntax.IfClause:
		return ifOK(c), true
	case *syntax.ForClause:
		it, isIter := c.Loop.(*syntax.WordIter)
		if c.Select || !isIter || !it.InPos.IsValid() || !loopVarOK(it.Name.Value) {
			return false, true
		}
		for _, w := range it.Items {
			if _, ok := fields(w); !ok {
				return false, true
			}
		}
		return stmtsOK(c.Do), true
	case *syntax.WhileClause:
		return stmtsOK(c.Cond) && stmtsOK(c.Do), true
	case *syntax.TestClause:
		return testExprOK(c.X), true
	}
	return false, false
}

func ifOK(c *syntax.IfClause) bool {
	for ; c != nil; c = c.Else {
		if !stmtsOK(c.Cond) || !stmtsOK(c.Then) {
			return false
		}
	}
	return true
}

func stmtsOK(stmts []*syntax.Stmt) bool {
	for _, s := range stmts {
		if !stmtOK(s) {
			return false
		}
	}
	return true
}

// loopVarOK accepts a for loop's variable: a lower-case name that no shell
// gives a meaning (zsh ties path, cdpath, fpath, … to the variables that
// decide where commands and functions load from) and no program reads from
// the environment (the *_proxy family).
func loopVarOK(name string) bool {
	return nameOf(name, 'a', 'z', 32) && !zshSpecials[name] && !strings.Contains(name, "proxy") &&
		!strings.HasSuffix(name, "_functions") && !strings.HasPrefix(name, "dis_") &&
		!strings.HasPrefix(name, "zsh_")
}

// zshSpecialsText holds zsh's lower-case special parameters (zshparam(1) and the
// zsh/parameter, zsh/mapfile, zsh/terminfo, zsh/termcap, zsh/system and zsh/zle
// modules): assigning one changes how the shell finds commands, runs hooks,
// or writes files.
var zshSpecialsText = `argv cdpath fignore fpath histchars mailpath manpath module_path path
	prompt psvar status pipestatus watch signals match mbegin mend options parameters commands
	functions functions_source builtins reswords aliases galiases saliases modules dirstack history
	historywords jobdirs jobtexts jobstates nameddirs userdirs usergroups funcfiletrace
	funcsourcetrace funcstack functrace patchars sysparams errnos epochtime terminfo termcap
	keymaps widgets mapfile reply registers killring region_highlight zle_highlight
	precmd preexec chpwd periodic zshaddhistory zshexit`

// A test operand is one word whose expansion cannot split or glob: a
// literal, or expansions inside double quotes.
func operandOK(w *syntax.Word) bool {
	ws, ok := fields(w)
	if !ok || len(ws) != 1 || ws[0].glob {
		return false
	}
	return ws[0].known() || quotedOnly(w)
}

// quotedOnly reports whether every expansion of w sits inside double
// quotes (bash splits an unquoted one into words).
func quotedOnly(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			if p.Dollar {
				return false
			}
			for _, q := range p.Parts {
				if pe, ok := q.(*syntax.ParamExp); ok && pe.Param != nil && pe.Param.Value == "@" {
					return false // "$@" is a word per argument
				}
			}
		default:
			return false
		}
	}
	return true
}

// testExprOK judges a [[ … ]] expression: file and string tests, string
// and pattern comparisons, -nt -ot -ef, and integer comparisons of decimal
// literals only (both shells evaluate these operands as arithmetic, which
// can run a command). -v, -R, -o and =~ are refused.
func testExprOK(x syntax.TestExpr) bool {
	switch x := x.(type) {
	case *syntax.Word:
		return condWordOK(x)
	case *syntax.ParenTest:
		return testExprOK(x.X)
	case *syntax.UnaryTest:
		switch x.Op {
		case syntax.TsNot:
			return testExprOK(x.X)
		case syntax.TsVarSet, syntax.TsRefVar, syntax.TsOptSet, syntax.TsParen:
			return false
		}
		w, ok := x.X.(*syntax.Word)
		return ok && condWordOK(w)
	case *syntax.BinaryTest:
		switch x.Op {
		case syntax.AndTest, syntax.OrTest:
			return testExprOK(x.X) && testExprOK(x.Y)
		case syntax.TsReMatch:
			return false
		case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
			return intLit(x.X) && intLit(x.Y)
		}
		l, lok := x.X.(*syntax.Word)
		r, rok := x.Y.(*syntax.Word)
		return lok && rok && condWordOK(l) && condWordOK(r)
	}
	return false
}

// condWordOK: a word inside [[ … ]], where neither shell splits or globs
// (a pattern on the right of == is matched, not expanded to file names).
func condWordOK(w *syntax.Word) bool {
	ws, ok := fields(w)
	return ok && len(ws) == 1
}

// intLit reports a decimal integer literal, optionally signed.
func intLit(x syntax.TestExpr) bool {
	w, ok := x.(*syntax.Word)
	if !ok {
		return false
	}
	return isInt(w.Lit())
}

func isInt(s string) bool {
	return isDigits(strings.TrimPrefix(s, "-"))
}

// bracketOK judges test and [ … ] (the arguments after the command name):
// the POSIX forms by argument count, with the operator words known and
// every operand one unsplittable word. A dynamic operand never stands
// where the count would read it as an operator.
func bracketOK(name string, args []*syntax.Word) bool {
	if name == "[" {
		if len(args) == 0 || args[len(args)-1].Lit() != "]" {
			return false
		}
		args = args[:len(args)-1]
	}
	lit := func(i int) string {
		ws, ok := fields(args[i])
		if !ok || len(ws) != 1 || !ws[0].known() {
			return "\x00" // not a known word
		}
		return ws[0].text
	}
	if len(args) > 0 && lit(0) == "!" && len(args) != 3 {
		return len(args) >= 2 && bracketOK("test", args[1:])
	}
	switch len(args) {
	case 0:
		return true
	case 1:
		return operandOK(args[0])
	case 2:
		return unaryTests[lit(0)] && operandOK(args[1])
	case 3:
		op := lit(1)
		switch {
		case binaryTests[op]:
			return operandOK(args[0]) && operandOK(args[2])
		case intTests[op]:
			return isInt(lit(0)) && isInt(lit(2))
		case lit(0) == "!":
			return unaryTests[op] && operandOK(args[2])
		}
	}
	return false
}

// prefixOK judges the VAR=value words before a simple command: each a
// plain assignment of a known value to a variable that changes nothing
// about how programs load or run (see envNameOK).
func prefixOK(assigns []*syntax.Assign) bool {
	for _, a := range assigns {
		if a.Append || a.Naked || a.Index != nil || a.Array != nil || a.Name == nil || !envNameOK(a.Name.Value) {
			return false
		}
		if a.Value == nil {
			continue
		}
		ws, ok := fields(a.Value)
		if !ok || len(ws) != 1 || !ws[0].known() || len(ws[0].text) > 256 {
			return false
		}
		v := ws[0].text
		if strings.ContainsAny(v, "*?[]{}$`\\\n") {
			return false
		}
		if (strings.HasPrefix(a.Name.Value, "LANG") || strings.HasPrefix(a.Name.Value, "LC_")) && strings.ContainsAny(v, "/") {
			return false
		}
	}
	return true
}

// simpleOK judges a simple command: its VAR=value prefixes (prefixOK), then
// test and [ … ] by their own grammar (bracketOK), any other command by
// its listed rule, judged as if the prefixes were absent: a variable the
// deny list lets through changes nothing about what the command does.
func simpleOK(c *syntax.CallExpr) bool {
	if len(c.Args) == 0 {
		return false
	}
	if len(c.Assigns) > 0 {
		if !prefixOK(c.Assigns) {
			return false
		}
		bare := *c
		bare.Assigns = nil
		c = &bare
	}
	switch name := c.Args[0].Lit(); name {
	case "[", "test":
		return bracketOK(name, c.Args[1:])
	}
	return callOK(c)
}
