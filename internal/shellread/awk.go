package shellread

// awkTable is the union of gawk's, mawk's and the one-true-awk's options:
// all stop at the program text. -f and its kin read a program that cannot
// be judged here; gawk's -o, -p and -d write a file.
const awkTable = `stop
-F= --field-separator=
-v= --assign=
-e= --source=
-b --characters-as-bytes
-c --traditional
-C --copyright
-g --gen-pot
-h --usage
-L --lint?
-M --bignum
-n --non-decimal-data
-N --use-lc-numeric
-O --optimize
-P --posix
-r --re-interval
-s --no-optimize
-S --sandbox
-t --lint-old
-V --version
--help
-f= --file= -E= --exec= -i= --include= -l= --load= !x
-W= !x # mawk's and gawk's -W options: -W exec, -W dump and the long options again
-D --debug? !x
-o --pretty-print? -p --profile? -d --dump-variables? !w`

// awkOK judges awk: its options, then the program text (unless -e gave
// it), judged by awkProgramOK; the words after it are files and
// assignments, read.
func awkOK(args []word) bool {
	s := spec("awk")
	p, ok := s.parse(args, false)
	if !ok || !s.verdict(p) {
		return false
	}
	progs := 0
	for _, u := range p.uses {
		if u.name == "--source" || u.name == "-e" {
			if !u.value.known() || !awkProgramOK(u.value.text) {
				return false
			}
			progs++
		}
	}
	if progs == 0 {
		if len(p.operands) == 0 || !p.operands[0].known() {
			return false
		}
		return awkProgramOK(p.operands[0].text)
	}
	return true
}

// awkDenied reports the names awk's programs may not use: system runs a
// command, getline reads a command's output or a network special file
// (gawk's /inet), ENVIRON writes reach child processes, close/fflush name
// commands, and the names gawk reaches through an indirect call.
func awkDenied(name string) bool {
	switch name {
	case "system", "getline", "ENVIRON", "PROCINFO", "SYMTAB", "FUNCTAB", "close", "fflush":
		return true
	}
	return false
}

// awkKeyword reports the words that end an operand: a "/" after one starts a regular
// expression, after an operand it divides.
func awkKeyword(name string) bool {
	switch name {
	case "BEGIN", "END", "BEGINFILE", "ENDFILE", "function", "func", "if", "else", "while", "for", "do",
		"break", "continue", "next", "nextfile", "exit", "return", "delete", "in", "print", "printf", "getline":
		return true
	}
	return false
}

// awkProgramOK judges an awk program by its tokens: no name in awkDenied,
// no "|" (a pipe to or from a command, gawk's |&), no "@" (gawk's
// @load, @include and indirect calls), no backquote, and no ">" at the
// top level of a print or printf statement (output redirection). Strings
// and regular expressions are skipped as the awk lexer reads them; a
// program the scan cannot read to its end is refused.
func awkProgramOK(prog string) bool {
	operand := false // the last token was an operand: "/" divides
	inPrint, printDepth, depth := false, 0, 0
	for i := 0; i < len(prog); i++ {
		c := prog[i]
		switch {
		case c == '#':
			for i < len(prog) && prog[i] != '\n' {
				i++
			}
			i-- // the newline ends a print statement below
		case c == '"':
			j, ok := skipQuoted(prog, i, '"')
			if !ok {
				return false
			}
			i, operand = j, true
		case c == '/' && !operand:
			j, ok := skipQuoted(prog, i, '/')
			if !ok {
				return false
			}
			i, operand = j, true
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			j := i
			for j < len(prog) && (prog[j] == '_' || 'a' <= prog[j] && prog[j] <= 'z' || 'A' <= prog[j] && prog[j] <= 'Z' || '0' <= prog[j] && prog[j] <= '9') {
				j++
			}
			name := prog[i:j]
			if awkDenied(name) {
				return false
			}
			if name == "print" || name == "printf" {
				inPrint, printDepth = true, depth
			}
			operand = !awkKeyword(name)
			i = j - 1
		case '0' <= c && c <= '9' || c == '.':
			operand = true
		case c == '|' || c == '@' || c == '`':
			if c == '|' && i+1 < len(prog) && prog[i+1] == '|' {
				i++
				operand = false
				continue
			}
			return false
		case c == '>':
			if inPrint && depth == printDepth {
				return false
			}
			operand = false
		case c == '(' || c == '[':
			depth++
			operand = false
		case c == ')' || c == ']':
			depth--
			operand = true
		case c == ';' || c == '\n' || c == '{' || c == '}':
			if depth <= printDepth {
				inPrint = false
			}
			operand = false
		case c == '$':
			operand = false // $ takes an operand after it
		case c == '\\':
			i++ // a continuation or an escaped character
		case c == ' ' || c == '\t':
		case c == '+' || c == '-':
			if i+1 < len(prog) && prog[i+1] == c { // ++ and -- keep the operand state
				i++
				continue
			}
			operand = false
		default:
			operand = false
		}
	}
	return depth == 0
}

// skipQuoted returns the index of the quote that closes the string or
// regular expression opened at i, honouring backslashes. A "/" inside a
// bracket expression ends the regular expression here: where an awk reads
// on to the bracket's end, the scan reads that rest as code, which only
// refuses more.
func skipQuoted(s string, i int, q byte) (int, bool) {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '\n':
			return 0, false
		case q:
			return j, true
		}
	}
	return 0, false
}
