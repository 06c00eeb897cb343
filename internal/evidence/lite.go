package evidence

import (
	"bytes"
	"encoding/json"
)

// A fast reading of a main transcript's assistant row: one pass over the
// line that validates it as strictly as encoding/json does and keeps only
// the fields a turn needs, passing over the content. Whenever the line is
// anything but the plain shape (an escaped or differently cased key, a
// field of an unexpected type), it says so and the caller decodes the line
// with encoding/json instead, so the two never disagree.

type lite struct {
	b   []byte
	i   int
	out *liteRow
	// raw usage values, slices of the line (valid during the callback)
	odd bool // not the plain shape: decode with encoding/json
	bad bool // not valid JSON
	// objects read into a pointer, which encoding/json would merge on a
	// repeated key
	usageSeen, splitSeen bool
}

func (l *lite) ws() {
	for l.i < len(l.b) {
		switch l.b[l.i] {
		case ' ', '\t', '\n', '\r':
			l.i++
		default:
			return
		}
	}
}

func (l *lite) peek() byte {
	l.ws()
	if l.i >= len(l.b) {
		l.bad = true
		return 0
	}
	return l.b[l.i]
}

func (l *lite) expect(c byte) bool {
	if l.peek() != c {
		l.bad = true
		return false
	}
	l.i++
	return true
}

// str reads a string at l.i (after its opening quote has been seen by
// peek) and returns its bytes when it has no escape; an escape marks the
// line odd (still validated).
func (l *lite) str() ([]byte, bool) {
	if !l.expect('"') {
		return nil, false
	}
	start := l.i
	esc := false
	for l.i < len(l.b) {
		c := l.b[l.i]
		switch {
		case c == '"':
			s := l.b[start:l.i]
			l.i++
			return s, !esc
		case c == '\\':
			esc = true
			if l.i+1 >= len(l.b) {
				l.bad = true
				return nil, false
			}
			switch l.b[l.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				l.i += 2
			case 'u':
				if l.i+6 > len(l.b) || !hex4(l.b[l.i+2:l.i+6]) {
					l.bad = true
					return nil, false
				}
				l.i += 6
			default:
				l.bad = true
				return nil, false
			}
		case c < 0x20:
			l.bad = true
			return nil, false
		default:
			// a run of plain bytes up to the next quote or backslash
			j := bytes.IndexAny(l.b[l.i:], "\"\\")
			if j < 0 {
				l.bad = true
				return nil, false
			}
			for _, x := range l.b[l.i : l.i+j] {
				if x < 0x20 {
					l.bad = true
					return nil, false
				}
			}
			l.i += j
		}
	}
	l.bad = true
	return nil, false
}

func hex4(p []byte) bool {
	for _, c := range p {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// value passes over one value and returns its bytes.
func (l *lite) value(depth int) []byte {
	if depth > 10000 {
		l.bad = true // encoding/json's nesting limit
		return nil
	}
	c := l.peek()
	start := l.i
	switch {
	case l.bad:
		return nil
	case c == '"':
		l.str()
	case c == '{':
		l.i++
		if l.peek() == '}' {
			l.i++
			break
		}
		for !l.bad {
			l.str()
			l.expect(':')
			l.value(depth + 1)
			if l.peek() == ',' {
				l.i++
				continue
			}
			l.expect('}')
			break
		}
	case c == '[':
		l.i++
		if l.peek() == ']' {
			l.i++
			break
		}
		for !l.bad {
			l.value(depth + 1)
			if l.peek() == ',' {
				l.i++
				continue
			}
			l.expect(']')
			break
		}
	case c == 't':
		l.word("true")
	case c == 'f':
		l.word("false")
	case c == 'n':
		l.word("null")
	default:
		l.number()
	}
	if l.bad {
		return nil
	}
	return l.b[start:l.i]
}

func (l *lite) word(w string) {
	if !bytes.HasPrefix(l.b[l.i:], []byte(w)) {
		l.bad = true
		return
	}
	l.i += len(w)
}

// number passes over a number in JSON's grammar.
func (l *lite) number() {
	digits := func() int {
		n := 0
		for l.i < len(l.b) && '0' <= l.b[l.i] && l.b[l.i] <= '9' {
			l.i++
			n++
		}
		return n
	}
	if l.i < len(l.b) && l.b[l.i] == '-' {
		l.i++
	}
	if l.i < len(l.b) && l.b[l.i] == '0' {
		l.i++
	} else if digits() == 0 {
		l.bad = true
		return
	}
	if l.i < len(l.b) && l.b[l.i] == '.' {
		l.i++
		if digits() == 0 {
			l.bad = true
			return
		}
	}
	if l.i < len(l.b) && (l.b[l.i] == 'e' || l.b[l.i] == 'E') {
		l.i++
		if l.i < len(l.b) && (l.b[l.i] == '+' || l.b[l.i] == '-') {
			l.i++
		}
		if digits() == 0 {
			l.bad = true
		}
	}
}

// object reads an object, calling field for each key (plain keys only:
// an escaped one marks the line odd); field reads the value.
func (l *lite) object(field func(key []byte)) {
	if !l.expect('{') {
		return
	}
	if l.peek() == '}' {
		l.i++
		return
	}
	for !l.bad {
		k, plain := l.str()
		if !plain {
			l.odd = true
		}
		l.expect(':')
		if l.bad {
			return
		}
		field(k)
		if l.peek() == ',' {
			l.i++
			continue
		}
		l.expect('}')
		return
	}
}

// field reads a value that must be a string (or null) into dst; another
// type, an escape, or a key that matches only when case is ignored (as
// encoding/json matches it) marks the line odd.
func (l *lite) strField(dst *string) {
	switch l.peek() {
	case '"':
		s, plain := l.str()
		if !plain {
			l.odd = true
		}
		*dst = string(s)
	case 'n':
		l.word("null")
	default:
		l.odd = true
		l.value(0)
	}
}

// known reports whether key is one of names exactly; a key equal to one
// only when case is ignored marks the line odd.
func (l *lite) known(key []byte, name string) bool {
	if string(key) == name {
		return true
	}
	if bytes.EqualFold(key, []byte(name)) {
		l.odd = true
	}
	return false
}

// decodeFast reads a main transcript's assistant row; ok is false when the
// line must be decoded by encoding/json instead.
func decodeFast(line []byte) (r liteRow, valid, ok bool) {
	l := &lite{b: line, out: &r}
	l.object(func(k []byte) {
		switch {
		case l.known(k, "type"):
			l.strField(&r.Type)
		case l.known(k, "sessionId"):
			l.strField(&r.SessionID)
		case l.known(k, "agentId"):
			l.strField(&r.AgentID)
		case l.known(k, "timestamp"):
			l.strField(&r.Timestamp)
		case l.known(k, "requestId"):
			l.strField(&r.RequestID)
		case l.known(k, "attributionSkill"):
			l.strField(&r.AttributionSkill)
		case l.known(k, "message"):
			l.message(&r)
		default:
			l.value(0)
		}
	})
	l.ws()
	if l.i != len(l.b) {
		l.bad = true
	}
	return r, !l.bad, !l.odd
}

// opens reports whether an object starts here. A null is passed over (the
// field reads as absent, as encoding/json reads a null into a pointer);
// any other value marks the line odd.
func (l *lite) opens() bool {
	switch l.peek() {
	case '{':
		return true
	case 'n':
		l.word("null")
	default:
		l.odd = true
		l.value(0)
	}
	return false
}

func (l *lite) message(r *liteRow) {
	if !l.opens() {
		return
	}
	l.object(func(k []byte) {
		switch {
		case l.known(k, "id"):
			l.strField(&r.Message.ID)
		case l.known(k, "model"):
			l.strField(&r.Message.Model)
		case l.known(k, "usage"):
			l.usage(r)
		default:
			l.value(0)
		}
	})
}

func (l *lite) usage(r *liteRow) {
	if !l.opens() {
		r.Message.Usage = nil
		return
	}
	if l.usageSeen {
		l.odd = true
	}
	l.usageSeen = true
	u := &rawUsage{}
	r.Message.Usage = u
	raw := func(dst *json.RawMessage) { *dst = l.value(0) }
	l.object(func(k []byte) {
		switch {
		case l.known(k, "input_tokens"):
			raw(&u.Input)
		case l.known(k, "cache_creation_input_tokens"):
			raw(&u.CacheCreation)
		case l.known(k, "cache_read_input_tokens"):
			raw(&u.CacheRead)
		case l.known(k, "output_tokens"):
			raw(&u.Output)
		case l.known(k, "speed"):
			raw(&u.Speed)
		case l.known(k, "cache_creation"):
			l.split(u)
		default:
			l.value(0)
		}
	})
}

func (l *lite) split(u *rawUsage) {
	if !l.opens() {
		u.Split = nil
		return
	}
	if l.splitSeen {
		l.odd = true
	}
	l.splitSeen = true
	u.Split = &struct {
		M5 json.RawMessage `json:"ephemeral_5m_input_tokens"`
		H1 json.RawMessage `json:"ephemeral_1h_input_tokens"`
	}{}
	l.object(func(k []byte) {
		switch {
		case l.known(k, "ephemeral_5m_input_tokens"):
			u.Split.M5 = l.value(0)
		case l.known(k, "ephemeral_1h_input_tokens"):
			u.Split.H1 = l.value(0)
		default:
			l.value(0)
		}
	})
}
