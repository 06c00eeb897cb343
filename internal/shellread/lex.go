package shellread

import (
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// lexical reads a command's bytes before any parse and refuses the byte
// sequences where mvdan.cc/sh and the real shells are known or suspected to
// read the command differently. It returns ok, or false with a reason for
// the person reading the gate's denial; a false with an empty reason is a
// construct the later stages refuse anyway (a command or process
// substitution, a parameter expansion with operators), refused here so that
// the scan never has to model quoting inside it.
//
// The accepted subset: printable UTF-8 text with tabs and line feeds; words
// quoted with '…', "…" and $'…'; a backslash-newline only as a plain
// continuation between words (after an unquoted blank, before a word);
// comments that end without a backslash; $name, ${name} and $((…)) over
// plain arithmetic characters; here-documents whose delimiter is letters,
// digits and underscores (plain, or wholly in '…' or "…") and whose body
// is found, holds no backslash, and substitutes nothing. Everything else is
// refused.
func lexical(cmd string) (bool, string) {
	if r := badRune(cmd); r != "" {
		return false, r
	}
	l := lexer{s: cmd, blank: true, wordStart: true}
	return l.run()
}

// badRune names the first control byte, non-UTF-8 sequence, or invisible
// or separator character of s (tab and line feed excepted), or "".
func badRune(s string) string {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' || c == 0x7f {
				return fmt.Sprintf("a control byte (0x%02x%s) at byte %d", c, controlName(c), i)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			return fmt.Sprintf("a byte sequence that is not UTF-8 at byte %d", i)
		}
		if unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Zs) {
			return fmt.Sprintf("an invisible or separator character (U+%04X) at byte %d", r, i)
		}
		i += n
	}
	return ""
}

func controlName(c byte) string {
	switch c {
	case 0:
		return ", NUL"
	case '\r':
		return ", carriage return"
	case '\f':
		return ", form feed"
	case '\v':
		return ", vertical tab"
	case 0x1b:
		return ", escape"
	}
	return ""
}

// heredoc is a here-document whose body starts after the current line.
type heredoc struct {
	delim  string
	quoted bool // the delimiter was quoted: the body is literal
	dash   bool // <<-: leading tabs are stripped from body lines
}

type lexer struct {
	s string
	i int
	// blank: the byte before i is an unquoted, unescaped blank.
	blank bool
	// wordStart: i starts a word (a # here starts a comment).
	wordStart bool
	pending   []heredoc
	sawHdoc   bool
	sawCont   bool
}

// reason texts shared by several places.
const (
	whyContinuation = "a backslash-newline that is not a plain continuation between words"
	whyCommentCont  = "a backslash-newline at the end of a comment"
)

func (l *lexer) run() (bool, string) {
	for l.i < len(l.s) {
		c := l.s[l.i]
		switch {
		case c == ' ' || c == '\t':
			l.i++
			l.blank, l.wordStart = true, true
			continue
		case c == '\n':
			l.i++
			if ok, why := l.bodies(); !ok {
				return false, why
			}
			l.blank, l.wordStart = false, true
			continue
		case c == '#' && l.wordStart:
			if ok, why := l.comment(); !ok {
				return false, why
			}
			continue
		case c == '\\':
			if ok, why := l.backslash(); !ok {
				return false, why
			}
			continue
		case c == '\'':
			if ok, why := l.single(); !ok {
				return false, why
			}
		case c == '"':
			l.i++
			if ok, why := l.double(); !ok {
				return false, why
			}
		case c == '$':
			if ok, why := l.dollar(false); !ok {
				return false, why
			}
		case c == '`':
			return false, ""
		case c == '<' || c == '>':
			if ok, why := l.angle(); !ok {
				return false, why
			}
			l.blank, l.wordStart = false, true
			continue
		case c == '(' && l.i+1 < len(l.s) && l.s[l.i+1] == '(':
			return false, "an arithmetic command or nested subshell opening with (("
		case strings.IndexByte(";&|()", c) >= 0:
			l.i++
			l.blank, l.wordStart = false, true
			continue
		default:
			l.i++
		}
		l.blank, l.wordStart = false, false
	}
	if len(l.pending) > 0 {
		return false, "a here-document whose body is missing"
	}
	if l.sawHdoc && l.sawCont {
		return false, "a backslash-newline in a command holding a here-document"
	}
	return true, ""
}

// backslash reads an unquoted backslash at l.i.
func (l *lexer) backslash() (bool, string) {
	if l.i+1 >= len(l.s) {
		return false, "a backslash at the end of the command"
	}
	if l.s[l.i+1] != '\n' {
		l.i += 2
		l.blank, l.wordStart = false, false
		return true, ""
	}
	// A continuation: accepted only after an unquoted blank, with no
	// here-document waiting for its body, before the start of a word.
	if !l.blank || len(l.pending) > 0 || l.i+2 >= len(l.s) || strings.IndexByte("\n#\\", l.s[l.i+2]) >= 0 {
		return false, whyContinuation
	}
	l.sawCont = true
	l.i += 2
	l.blank, l.wordStart = false, true
	return true, ""
}

// comment skips a comment starting at l.i, up to (not past) its line feed.
func (l *lexer) comment() (bool, string) {
	end := strings.IndexByte(l.s[l.i:], '\n')
	if end < 0 {
		end = len(l.s)
	} else {
		end += l.i
	}
	if end > l.i && l.s[end-1] == '\\' {
		return false, whyCommentCont
	}
	l.i = end
	return true, ""
}

// single skips a '…' word part starting at l.i.
func (l *lexer) single() (bool, string) {
	end := strings.IndexByte(l.s[l.i+1:], '\'')
	if end < 0 {
		return false, "an unterminated single quote"
	}
	l.i += end + 2
	return true, ""
}

// double reads a "…" word part after its opening quote.
func (l *lexer) double() (bool, string) {
	for l.i < len(l.s) {
		switch l.s[l.i] {
		case '"':
			l.i++
			return true, ""
		case '\\':
			if l.i+1 < len(l.s) && l.s[l.i+1] == '\n' {
				return false, "a backslash-newline inside double quotes"
			}
			l.i += 2
		case '`':
			return false, ""
		case '$':
			if ok, why := l.dollar(true); !ok {
				return false, why
			}
		default:
			l.i++
		}
	}
	return false, "an unterminated double quote"
}

// dollar reads a $ form at l.i: $name, ${name}, $((…)), $'…', or a lone $.
func (l *lexer) dollar(quoted bool) (bool, string) {
	rest := l.s[l.i+1:]
	switch {
	case strings.HasPrefix(rest, "(("):
		return l.arith()
	case strings.HasPrefix(rest, "("):
		return false, ""
	case strings.HasPrefix(rest, "{"):
		end := strings.IndexByte(rest, '}')
		if end < 0 || !paramName(rest[1:end]) {
			return false, ""
		}
		l.i += end + 2
		return true, ""
	case strings.HasPrefix(rest, "\\\n"):
		return false, "a $ followed by a backslash-newline"
	case strings.HasPrefix(rest, "\"") && !quoted:
		return false, "a $\"…\" string (bash translates it, zsh does not)"
	case strings.HasPrefix(rest, "'") && !quoted:
		l.i += 2
		for l.i < len(l.s) {
			switch l.s[l.i] {
			case '\\':
				if l.i+1 < len(l.s) && l.s[l.i+1] == '\n' {
					return false, "a backslash-newline inside a $'…' string"
				}
				l.i += 2
				continue
			case '\'':
				l.i++
				return true, ""
			}
			l.i++
		}
		return false, "an unterminated $'…' string"
	}
	l.i++
	return true, ""
}

// paramName accepts the inside of a plain ${…}: a name, digits, or one
// special parameter character.
func paramName(s string) bool {
	if len(s) == 1 && strings.IndexByte("@*#?$!-0", s[0]) >= 0 {
		return true
	}
	if s == "" {
		return false
	}
	digits := s[0] >= '0' && s[0] <= '9'
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
		case !digits && (c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'):
		default:
			return false
		}
	}
	return true
}

// arith reads $((…)) at l.i: only arithmetic characters inside, no quotes,
// expansions or escapes.
func (l *lexer) arith() (bool, string) {
	depth := 0
	for j := l.i + 1; j < len(l.s); j++ {
		c := l.s[j]
		switch {
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				l.i = j + 1
				return true, ""
			}
		case c == ' ' || c == '\t' || c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9':
		case strings.IndexByte("+-*/%<>=!&|^~?:,#@", c) >= 0:
		default:
			return false, ""
		}
	}
	return false, ""
}

// angle reads a redirection operator at l.i; a here-document's delimiter is
// read and its body queued for the end of the line.
func (l *lexer) angle() (bool, string) {
	rest := l.s[l.i:]
	if strings.HasPrefix(rest, "<(") || strings.HasPrefix(rest, ">(") {
		return false, ""
	}
	if !strings.HasPrefix(rest, "<<") || strings.HasPrefix(rest, "<<<") {
		l.i++
		if strings.HasPrefix(rest, "<<<") {
			l.i += 2
		}
		return true, ""
	}
	l.i += 2
	h := heredoc{}
	if l.i < len(l.s) && l.s[l.i] == '-' {
		h.dash = true
		l.i++
	}
	for l.i < len(l.s) && (l.s[l.i] == ' ' || l.s[l.i] == '\t') {
		l.i++
	}
	start := l.i
	for l.i < len(l.s) && strings.IndexByte(" \t\n;&|()<>", l.s[l.i]) < 0 {
		l.i++
	}
	word := l.s[start:l.i]
	if len(word) >= 2 && (word[0] == '\'' || word[0] == '"') && word[len(word)-1] == word[0] {
		h.quoted = true
		word = word[1 : len(word)-1]
	}
	if !delimWord(word) {
		return false, "a here-document delimiter other than plain letters, digits and underscores"
	}
	h.delim = word
	l.pending = append(l.pending, h)
	l.sawHdoc = true
	return true, ""
}

func delimWord(w string) bool {
	if w == "" {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// bodies reads the bodies of the here-documents queued on the line that
// just ended (l.i is past its line feed).
func (l *lexer) bodies() (bool, string) {
	for _, h := range l.pending {
		found := false
		for l.i < len(l.s) {
			end := strings.IndexByte(l.s[l.i:], '\n')
			line := l.s[l.i:]
			if end >= 0 {
				line = l.s[l.i : l.i+end]
				l.i += end + 1
			} else {
				l.i = len(l.s)
			}
			cmp := line
			if h.dash {
				cmp = strings.TrimLeft(line, "\t")
			}
			if cmp == h.delim {
				found = true
				break
			}
			if ok, why := bodyLine(line, h.quoted); !ok {
				return false, why
			}
		}
		if !found {
			return false, "a here-document whose delimiter line is missing"
		}
	}
	l.pending = l.pending[:0]
	return true, ""
}

// bodyLine judges one line of a here-document body: no backslash in an
// expanding body (nor at the end of a literal one), and in an expanding
// body no substitution and no ${…} beyond a plain name.
func bodyLine(line string, quoted bool) (bool, string) {
	if strings.HasSuffix(line, "\\") {
		return false, "a here-document body line ending in a backslash"
	}
	if quoted {
		return true, ""
	}
	if strings.IndexByte(line, '\\') >= 0 {
		return false, "a backslash in a here-document body that expands"
	}
	if strings.IndexByte(line, '`') >= 0 {
		return false, ""
	}
	for k := strings.IndexByte(line, '$'); k >= 0; {
		sub := lexer{s: line[k:]}
		if ok, why := sub.dollar(true); !ok {
			return false, why
		}
		next := strings.IndexByte(line[k+sub.i:], '$')
		if next < 0 {
			break
		}
		k += sub.i + next
	}
	return true, ""
}

// whyPrintBack is the reason given when a parse does not print back to the
// command's text.
const whyPrintBack = "text that does not print back unchanged after parsing (the parser and the shells may read it differently)"

var printers = sync.Pool{New: func() any { return syntax.NewPrinter() }}

// printsBack prints the parsed program and reports whether it equals src in
// everything but blanks, line feeds, semicolons and plain continuations
// (the printer's own layout). The printer writes a simple command's
// redirections after its words (from the second argument on); when the
// texts differ, they are compared again with src's redirections moved the
// same way.
func printsBack(f *syntax.File, src string) bool {
	p := printers.Get().(*syntax.Printer)
	var b strings.Builder
	b.Grow(len(src) + 16)
	err := p.Print(&b, f)
	printers.Put(p)
	if err != nil {
		return false
	}
	printed := layoutFree(b.String())
	if printed == layoutFree(src) {
		return true
	}
	moved, ok := redirsLast(f, src)
	return ok && printed == layoutFree(moved)
}

// A span edit: the bytes [from, to) of the source are removed and text is
// inserted at at.
type spanMove struct{ from, to, at int }

// redirsLast returns src with every redirection the printer writes after a
// simple command's words moved to just after its last word, in order, as
// the printer places them. It reports false when nothing moves.
func redirsLast(f *syntax.File, src string) (string, bool) {
	var moves []spanMove
	syntax.Walk(f, func(n syntax.Node) bool {
		s, ok := n.(*syntax.Stmt)
		if !ok {
			return true
		}
		c, ok := s.Cmd.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 {
			return true
		}
		end := int(c.Args[len(c.Args)-1].End().Offset())
		for _, r := range trailingRedirs(c, s.Redirs) {
			if from := int(r.Pos().Offset()); from < end {
				moves = append(moves, spanMove{from, int(r.Word.End().Offset()), end})
			}
		}
		return true
	})
	if len(moves) == 0 {
		return "", false
	}
	var b strings.Builder
	last := 0
	for k, m := range moves {
		if m.from < last || m.to > len(src) {
			return "", false
		}
		b.WriteString(src[last:m.from])
		last = m.to
		if k+1 == len(moves) || moves[k+1].at != m.at {
			b.WriteString(src[last:m.at])
			last = m.at
			for _, o := range moves {
				if o.at == m.at {
					b.WriteString(" " + src[o.from:o.to] + " ")
				}
			}
		}
	}
	b.WriteString(src[last:])
	return b.String(), true
}

// trailingRedirs returns the redirections the printer writes after all of
// a simple command's words: those not written before the first or second
// argument (a here-document ends the early ones).
func trailingRedirs(c *syntax.CallExpr, redirs []*syntax.Redirect) []*syntax.Redirect {
	k := 0
	for _, limit := range c.Args[:min(2, len(c.Args))] {
		for k < len(redirs) && !redirs[k].Pos().After(limit.Pos()) &&
			redirs[k].Op != syntax.Hdoc && redirs[k].Op != syntax.DashHdoc {
			k++
		}
	}
	return redirs[k:]
}

// layoutFree drops blanks, line feeds, semicolons and backslash-newlines.
func layoutFree(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t', '\n', ';':
		case '\\':
			if i+1 < len(s) {
				i++
				if s[i] != '\n' {
					b.WriteByte(c)
					b.WriteByte(s[i])
				}
				continue
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
