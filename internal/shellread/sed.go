package shellread

import "strings"

// sedOK judges sed: -i/--in-place edits files and -f/--file reads a script
// that cannot be judged, so both are refused; every script (the -e values,
// else the first operand) must be free of the w/W/e commands and of the w
// and e flags of s.
var sedLongFlags map[string]bool // made by loadTables

func sedOK(args []word) bool {
	var scripts []word
	var operands []word
	ended := false
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case ended || !w.option():
			operands = append(operands, w)
		case !w.known():
			return false
		case w.text == "--":
			ended = true
		case strings.HasPrefix(w.text, "--"):
			name, value, hasValue := strings.Cut(w.text[2:], "=")
			switch {
			case sedLongFlags[name] && !hasValue:
			case name == "expression" || name == "line-length":
				if !hasValue {
					i++
					if i >= len(args) {
						return false
					}
					value, w = args[i].text, args[i]
				}
				if name[0] == 'e' {
					scripts = append(scripts, word{text: value, dynamic: w.dynamic, glob: w.glob})
				}
			default: // --in-place, --file and any option not listed
				return false
			}
		default:
			t := w.text
		cluster:
			for j := 1; j < len(t); j++ {
				switch t[j] {
				case 'n', 'E', 'r', 's', 'u', 'z':
				case 'e', 'l':
					value, vw := t[j+1:], w
					if value == "" {
						i++
						if i >= len(args) {
							return false
						}
						value, vw = args[i].text, args[i]
					}
					if t[j] == 'e' {
						scripts = append(scripts, word{text: value, dynamic: vw.dynamic, glob: vw.glob})
					} else if !vw.known() || !isDigits(value) {
						// macOS sed's -l takes no value: the word after it
						// is the script there
						return false
					}
					break cluster
				default: // -i, -f and any option not listed
					return false
				}
			}
		}
	}
	if len(scripts) == 0 {
		if len(operands) == 0 {
			return false
		}
		scripts = operands[:1]
	}
	for _, s := range scripts {
		if !s.known() || !sedScriptOK(s.text) {
			return false
		}
	}
	return true
}

// sedScriptOK reports whether a GNU sed script only reads: no w, W or e
// command, no w or e flag on s. What it cannot parse it refuses.
func sedScriptOK(s string) bool {
	p := &sedParser{s: s}
	for {
		p.skip(" \t\n;")
		if p.eof() {
			return true
		}
		if p.peek() == '#' {
			p.toEOL()
			continue
		}
		if p.peek() == '}' {
			p.i++
			continue
		}
		if !p.address() {
			return false
		}
		if p.peek() == ',' {
			p.i++
			p.skip(" \t")
			if p.peek() == '+' || p.peek() == '~' {
				p.i++
				if !p.digits() {
					return false
				}
			} else if !p.address() {
				return false
			}
		}
		p.skip(" \t")
		for p.peek() == '!' {
			p.i++
			p.skip(" \t")
		}
		if p.eof() {
			return false
		}
		c := p.s[p.i]
		p.i++
		switch c {
		case '{':
			continue
		case '=', 'd', 'D', 'g', 'G', 'h', 'H', 'l', 'n', 'N', 'p', 'P', 'q', 'Q', 'x', 'z', 'F':
			p.skip(" \t")
			p.digits()
		case ':', 'b', 't', 'T', 'v':
			// GNU sed ends a label at whitespace too: ":x w F" writes F
			p.toAny("; \t\n")
		case 'a', 'i', 'c', 'r', 'R':
			p.toEOL()
		case 's':
			if !p.delimited(true, false) {
				return false
			}
			for !p.eof() {
				f := p.s[p.i]
				if f == 'w' || f == 'W' || f == 'e' {
					return false
				}
				if !strings.ContainsRune("gpiImM0123456789", rune(f)) {
					break
				}
				p.i++
			}
		case 'y':
			if !p.delimited(false, false) {
				return false
			}
		default: // w, W, e and anything unknown
			return false
		}
		p.skip(" \t")
		if !p.eof() && !strings.ContainsRune(";\n}#", rune(p.peek())) {
			return false
		}
	}
}

type sedParser struct {
	s string
	i int
}

func (p *sedParser) eof() bool { return p.i >= len(p.s) }

func (p *sedParser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.s[p.i]
}

func (p *sedParser) skip(chars string) {
	for !p.eof() && strings.IndexByte(chars, p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *sedParser) digits() bool {
	start := p.i
	for !p.eof() && '0' <= p.s[p.i] && p.s[p.i] <= '9' {
		p.i++
	}
	return p.i > start
}

// toEOL skips to the end of the line, a backslash escaping the next byte.
func (p *sedParser) toEOL() {
	for !p.eof() && p.s[p.i] != '\n' {
		if p.s[p.i] == '\\' {
			p.i++
		}
		p.i++
	}
}

func (p *sedParser) toAny(stop string) {
	for !p.eof() && strings.IndexByte(stop, p.s[p.i]) < 0 {
		p.i++
	}
}

// address parses an optional address: a line number (first~step), $,
// /regex/ or \cregexc, with the I and M flags of a regex.
func (p *sedParser) address() bool {
	switch c := p.peek(); {
	case '0' <= c && c <= '9':
		p.digits()
		if p.peek() == '~' {
			p.i++
			return p.digits()
		}
	case c == '$':
		p.i++
	case c == '/':
		if !p.delimited(true) {
			return false
		}
		p.skip("IM")
	case c == '\\':
		p.i++
		if p.eof() || p.peek() == '\n' || p.peek() == '\\' {
			return false
		}
		if !p.delimited(true) {
			return false
		}
		p.skip("IM")
	}
	return true
}

// delimited reads a delimiter (the byte at the cursor) and one field per
// element of regex, each ended by it, a backslash escaping the next byte. In
// a regex field a bracket expression is skipped whole: GNU sed does not end
// the field at a delimiter inside one ("s/[/]/x/").
func (p *sedParser) delimited(regex ...bool) bool {
	if p.eof() {
		return false
	}
	d := p.s[p.i]
	if d == '\n' || d == '\\' {
		return false
	}
	p.i++
	for _, re := range regex {
		for {
			if p.eof() {
				return false
			}
			c := p.s[p.i]
			p.i++
			if c == '\\' {
				p.i++
				continue
			}
			if re && c == '[' && d != '[' {
				if !p.bracket() {
					return false
				}
				continue
			}
			if c == d {
				break
			}
		}
	}
	return true
}

// bracket skips a bracket expression after its '[': an optional '^', a
// leading ']', then up to the closing ']', skipping [:class:], [.coll.] and
// [=equiv=] inside.
func (p *sedParser) bracket() bool {
	if p.peek() == '^' {
		p.i++
	}
	if p.peek() == ']' {
		p.i++
	}
	for !p.eof() {
		c := p.s[p.i]
		p.i++
		switch {
		case c == ']':
			return true
		case c == '[' && strings.IndexByte(":.=", p.peek()) >= 0 && !p.eof():
			end := "]"
			end = string(p.s[p.i]) + end
			k := strings.Index(p.s[p.i+1:], end)
			if k < 0 {
				return false
			}
			p.i += 1 + k + len(end)
		}
	}
	return false
}
