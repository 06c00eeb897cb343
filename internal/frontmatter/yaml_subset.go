package frontmatter

import (
	"unicode/utf8"
)

// parseSimple reads a frontmatter block written in the small subset of YAML
// that record writers produce, without a YAML decoder:
//
//	key: plain words          # comment
//	key: "double quoted"      (no escapes, no inner quote)
//	key: 'single quoted'      (no doubled quote)
//	key: [a, "b", 'c']        (flow sequence of such scalars)
//	key: {k: [a, b], k2: c}   (flow mapping of such values)
//	key:                      (null), blank lines and column-0 comments
//	key:                      then, indented alike, either
//	  - scalar                (a block sequence of scalars) or
//	  sub: value              (a block mapping of such values)
//
// It fills fs exactly as decoding the block with the YAML decoder would
// (TestSimpleMatchesYAML and FuzzSimpleMatchesYAML hold it to that) and
// reports false, leaving fs unspecified, for anything else.
func parseSimple(block []byte, fs *Fields) bool {
	fs.reset()
	if !simpleBytes(block) {
		return false
	}
	var p simpleParser
	for len(block) > 0 {
		line := block
		block = nil
		for i, c := range line {
			if c == '\n' {
				line, block = line[:i], line[i+1:]
				break
			}
		}
		if !p.line(line, fs) {
			return false
		}
	}
	return p.end(fs)
}

// simpleParser tracks one open block collection: a "key:" line with no
// value followed by lines indented by the same number of spaces, all
// "- value" (a sequence) or all "subkey: value" (a mapping).
type simpleParser struct {
	open   bool // the last entry is a null "key:" that children may fill
	indent int  // children's indentation; 0 until the first child
	seq    bool // children are "- value" lines
}

func (p *simpleParser) line(line []byte, fs *Fields) bool {
	ind := 0
	for ind < len(line) && line[ind] == ' ' {
		ind++
	}
	if ind == len(line) || line[ind] == '#' && ind == 0 {
		return true // blank, or a column-0 comment
	}
	if ind == 0 {
		if !p.end(fs) {
			return false
		}
		if !simpleLine(line, fs) {
			return false
		}
		e := &fs.entries[len(fs.entries)-1]
		v := skipSp(line[len(e.key)+1:])
		p.open = len(v) == 0 || v[0] == '#'
		return true
	}
	if !p.open || (p.indent != 0 && ind != p.indent) || line[ind] == '#' {
		return false
	}
	child := line[ind:]
	seq := child[0] == '-'
	e := &fs.entries[len(fs.entries)-1]
	if p.indent == 0 {
		p.indent, p.seq = ind, seq
		e.kind, e.leafLo, e.leafHi = kindColl, len(fs.leaves), len(fs.leaves)
	} else if seq != p.seq {
		return false
	}
	var rest []byte
	if seq {
		if len(child) < 3 || child[1] != ' ' {
			return false
		}
		rest = skipSp(child[2:])
		if len(rest) == 0 || rest[0] == '#' {
			return false
		}
	} else {
		k := keyLen(child)
		if k == 0 || k >= len(child) || child[k] != ':' {
			return false
		}
		rest = child[k+1:]
		if len(rest) > 0 && rest[0] != ' ' {
			return false
		}
		rest = skipSp(rest)
		if len(rest) == 0 || rest[0] == '#' {
			e.leafHi = len(fs.leaves)
			return true // subkey with a null value
		}
	}
	if !inlineValue(rest, fs, seq) {
		return false
	}
	e.leafHi = len(fs.leaves)
	return true
}

// end closes an open collection; a "key:" followed by nothing stays null.
func (p *simpleParser) end(fs *Fields) bool {
	*p = simpleParser{}
	return true
}

// inlineValue reads a child value (a leaf scalar or a flow collection)
// into fs.leaves. In a sequence, nested collections are refused.
func inlineValue(rest []byte, fs *Fields, seq bool) bool {
	switch rest[0] {
	case '[', '{':
		if seq {
			return false
		}
		var ok bool
		if rest[0] == '[' {
			rest, ok = flowSeq(rest, fs)
		} else {
			rest, ok = flowMap(rest, fs)
		}
		return ok && trailer(rest)
	case '"', '\'':
		v, r, ok := quoted(rest)
		if !ok || !trailer(r) {
			return false
		}
		fs.leaves = append(fs.leaves, v)
		return true
	}
	v, ok := plainValue(rest)
	if ok && !isNullText(v) {
		fs.leaves = append(fs.leaves, v)
	}
	return ok
}

// plainValue reads a block-context plain scalar of the subset and its
// optional comment.
func plainValue(rest []byte) ([]byte, bool) {
	if !plainStart(rest) {
		return nil, false
	}
	i := 0
	for i < len(rest) {
		c := rest[i]
		if c == ':' || (c == '#' && rest[i-1] != ' ') {
			return nil, false
		}
		if c == '#' {
			break
		}
		i++
	}
	return trimRightSp(rest[:i]), true
}

// simpleBytes accepts printable ASCII, LF, and valid UTF-8 characters that
// YAML accepts as printable (no C1 controls, no BOM, no surrogates).
func simpleBytes(b []byte) bool {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n') || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError || r < 0xA0 || r == 0xFEFF || (r >= 0xD800 && r <= 0xDFFF) || r == 0xFFFE || r == 0xFFFF {
			return false
		}
		i += n
	}
	return true
}

// simpleLine reads one column-0 "key: value" line into a new entry.
func simpleLine(line []byte, fs *Fields) bool {
	k := keyLen(line)
	if k == 0 || k >= len(line) || line[k] != ':' {
		return false
	}
	e := entry{key: line[:k], kind: kindNull}
	rest := line[k+1:]
	if len(rest) > 0 && rest[0] != ' ' {
		return false
	}
	rest = skipSp(rest)
	if len(rest) == 0 || rest[0] == '#' {
		fs.entries = append(fs.entries, e)
		return true
	}
	switch rest[0] {
	case '[', '{':
		e.kind = kindColl
		e.leafLo = len(fs.leaves)
		var ok bool
		if rest[0] == '[' {
			rest, ok = flowSeq(rest, fs)
		} else {
			rest, ok = flowMap(rest, fs)
		}
		if !ok || !trailer(rest) {
			return false
		}
		e.leafHi = len(fs.leaves)
	case '"', '\'':
		v, r, ok := quoted(rest)
		if !ok || !trailer(r) {
			return false
		}
		e.kind, e.val = kindQuoted, v
	default:
		v, ok := plainValue(rest)
		if !ok {
			return false
		}
		if !isNullText(v) {
			e.kind, e.val = kindPlain, v
		}
	}
	fs.entries = append(fs.entries, e)
	return true
}

// keyLen is the length of a leading [A-Za-z_][A-Za-z0-9_-]* key, at most
// 128 bytes; 0 when there is none.
func keyLen(b []byte) int {
	i := 0
	for i < len(b) && i <= 128 {
		c := b[i]
		if c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z') || (i > 0 && (c == '-' || (c >= '0' && c <= '9'))) {
			i++
			continue
		}
		break
	}
	if i > 128 {
		return 0
	}
	return i
}

// plainStart reports whether b starts a plain scalar of the subset.
func plainStart(b []byte) bool {
	c := b[0]
	return c >= utf8.RuneSelf || c == '_' || c == '.' || c == '/' || c == '(' || c == '~' ||
		(c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

func isNullText(v []byte) bool {
	switch string(v) {
	case "", "~", "null", "Null", "NULL":
		return true
	}
	return false
}

// quoted reads a quoted scalar without escapes at the start of b.
func quoted(b []byte) (val, rest []byte, ok bool) {
	q := b[0]
	for i := 1; i < len(b); i++ {
		switch c := b[i]; {
		case c == q:
			if q == '\'' && i+1 < len(b) && b[i+1] == '\'' {
				return nil, nil, false
			}
			return b[1:i], b[i+1:], true
		case c == '\\' && q == '"':
			return nil, nil, false
		}
	}
	return nil, nil, false
}

// trailer accepts what may follow a value: spaces, then nothing or a
// comment.
func trailer(b []byte) bool {
	if len(b) == 0 {
		return true
	}
	if b[0] != ' ' {
		return false
	}
	b = skipSp(b)
	return len(b) == 0 || b[0] == '#'
}

// flowScalar reads one scalar inside a flow collection; null reads as
// nothing.
func flowScalar(b []byte, fs *Fields) ([]byte, bool) {
	if len(b) == 0 {
		return nil, false
	}
	if b[0] == '"' || b[0] == '\'' {
		v, r, ok := quoted(b)
		if ok {
			fs.leaves = append(fs.leaves, v)
		}
		return r, ok
	}
	if !plainStart(b) {
		return nil, false
	}
	i := 0
	for i < len(b) {
		c := b[i]
		if c == ',' || c == ']' || c == '}' {
			break
		}
		if !flowPlainByte(c) {
			return nil, false
		}
		i++
	}
	if v := trimRightSp(b[:i]); !isNullText(v) {
		fs.leaves = append(fs.leaves, v)
	}
	return b[i:], true
}

// flowPlainByte is the conservative set of bytes a plain scalar inside a
// flow collection may hold in the subset (libyaml refuses e.g. "[0?]").
func flowPlainByte(c byte) bool {
	l := c | 0x20 // ASCII letters fold to lower case (as do some control bytes, which the subset check refuses first)
	return c >= utf8.RuneSelf || l >= 'a' && l <= 'z' || l >= '0' && l <= '9' || c == ' ' || c == '.' || c == '_' || c == '-' ||
		c == '/' || c == '(' || c == ')' || c == '~' || c == '+' || c == '=' || c == '@'
}

func flowSeq(b []byte, fs *Fields) ([]byte, bool) {
	b = skipSp(b[1:])
	if len(b) > 0 && b[0] == ']' {
		return b[1:], true
	}
	for {
		var ok, done bool
		if b, ok = flowScalar(b, fs); !ok {
			return nil, false
		}
		if b, done, ok = flowNext(b, ']'); done || !ok {
			return b, ok
		}
	}
}

func flowMap(b []byte, fs *Fields) ([]byte, bool) {
	b = skipSp(b[1:])
	if len(b) > 0 && b[0] == '}' {
		return b[1:], true
	}
	for {
		k := keyLen(b)
		if k == 0 || k+1 >= len(b) || b[k] != ':' || b[k+1] != ' ' {
			return nil, false
		}
		b = skipSp(b[k+1:])
		var ok, done bool
		if len(b) > 0 && b[0] == '[' {
			b, ok = flowSeq(b, fs)
		} else {
			b, ok = flowScalar(b, fs)
		}
		if !ok {
			return nil, false
		}
		if b, done, ok = flowNext(b, '}'); done || !ok {
			return b, ok
		}
	}
}

// flowNext reads what follows an entry of a flow collection: the closing
// byte (done, the rest after it) or a comma (the rest after it and its
// blanks); anything else is outside the subset.
func flowNext(b []byte, closing byte) (rest []byte, done, ok bool) {
	b = skipSp(b)
	switch {
	case len(b) == 0:
		return nil, false, false
	case b[0] == closing:
		return b[1:], true, true
	case b[0] != ',':
		return nil, false, false
	}
	return skipSp(b[1:]), false, true
}

func skipSp(b []byte) []byte {
	for len(b) > 0 && b[0] == ' ' {
		b = b[1:]
	}
	return b
}

func trimRightSp(b []byte) []byte {
	for len(b) > 0 && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	return b
}
