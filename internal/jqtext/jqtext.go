// Package jqtext writes JSON values as jq 1.6 prints them, so that the Go
// hooks produce the bytes the bash originals did: Render is jq -r on one
// value, AppendString is jq's string encoding. It is the hooks' concern
// (byte-for-byte compatibility with a jq pipeline), not a payload reader's,
// so it lives beside them rather than in hookio.
package jqtext

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// Render renders one JSON value the way jq -r prints it: a string as its raw
// text, a number in jq's canonical form (1.50 as 1.5, 1e3 as 1000), true,
// false and null as words, an object or array pretty-printed with a
// two-space indent (members in input order, a repeated key keeping its first
// place and last value). Invalid JSON renders as "".
func Render(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return ""
	}
	if v[0] == '"' {
		var s string
		if json.Unmarshal(v, &s) != nil {
			return ""
		}
		return s
	}
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	n, err := parseNode(dec)
	if err != nil {
		return ""
	}
	var b []byte
	b = n.appendPretty(b, 0)
	return string(b)
}

// node is a decoded JSON value that keeps member order.
type node struct {
	kind   byte // '{', '[', '"', '0' (number), 'l' (literal: true/false/null)
	text   string
	keys   []string
	values []*node
}

func parseNode(dec *json.Decoder) (*node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		n := &node{kind: byte(t)}
		index := map[string]int{}
		for dec.More() {
			var key string
			if t == '{' {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ = kt.(string)
			}
			child, err := parseNode(dec)
			if err != nil {
				return nil, err
			}
			if t == '{' {
				if i, dup := index[key]; dup {
					n.values[i] = child
					continue
				}
				index[key] = len(n.keys)
				n.keys = append(n.keys, key)
			}
			n.values = append(n.values, child)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		return n, nil
	case string:
		return &node{kind: '"', text: t}, nil
	case json.Number:
		return &node{kind: '0', text: jqNumber(string(t))}, nil
	case bool:
		return &node{kind: 'l', text: strconv.FormatBool(t)}, nil
	default:
		return &node{kind: 'l', text: "null"}, nil
	}
}

func (n *node) appendPretty(b []byte, depth int) []byte {
	switch n.kind {
	case '"':
		return AppendString(b, n.text)
	case '0', 'l':
		return append(b, n.text...)
	}
	open, closing := byte('['), byte(']')
	if n.kind == '{' {
		open, closing = '{', '}'
	}
	b = append(b, open)
	if len(n.values) == 0 {
		return append(b, closing)
	}
	for i, v := range n.values {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '\n')
		b = append(b, strings.Repeat("  ", depth+1)...)
		if n.kind == '{' {
			b = AppendString(b, n.keys[i])
			b = append(b, ": "...)
		}
		b = v.appendPretty(b, depth+1)
	}
	b = append(b, '\n')
	b = append(b, strings.Repeat("  ", depth)...)
	return append(b, closing)
}

// jqNumber formats a JSON number literal as jq 1.6 prints it: as a double,
// shortest round-trip digits, in plain notation unless the decimal exponent
// is -4 or below or more than 15 places past the last digit (the exponent
// written with at least two digits), and infinities clamped to the largest
// double.
func jqNumber(lit string) string {
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil && !math.IsInf(f, 0) {
		return lit
	}
	if math.IsInf(f, 1) {
		f = math.MaxFloat64
	} else if math.IsInf(f, -1) {
		f = -math.MaxFloat64
	}
	if f == 0 {
		if math.Signbit(f) {
			return "-0"
		}
		return "0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	decpt := x + 1 // digits before the decimal point
	nd := len(digits)
	var out string
	switch {
	case decpt <= -4 || decpt > nd+15:
		out = digits[:1]
		if nd > 1 {
			out += "." + digits[1:]
		}
		es := "+"
		if decpt-1 < 0 {
			es = "-"
		}
		ex := strconv.Itoa(abs(decpt - 1))
		if len(ex) < 2 {
			ex = "0" + ex
		}
		out += "e" + es + ex
	case decpt <= 0:
		out = "0." + strings.Repeat("0", -decpt) + digits
	case decpt >= nd:
		out = digits + strings.Repeat("0", decpt-nd)
	default:
		out = digits[:decpt] + "." + digits[decpt:]
	}
	return sign + out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

const hexDigits = "0123456789abcdef"

// AppendString appends s to dst as jq 1.6 writes a string: invalid UTF-8
// is first replaced by U+FFFD the way jq reads its arguments, then `"` and
// `\` are escaped, BS, TAB, LF, FF and CR become \b \t \n \f \r, every other
// C0 control and DEL becomes \u00xx (lowercase hex), and everything else
// (including "/", "<", U+2028 and U+2029) is written raw.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			switch c {
			case '"':
				dst = append(dst, `\"`...)
			case '\\':
				dst = append(dst, `\\`...)
			case '\b':
				dst = append(dst, `\b`...)
			case '\t':
				dst = append(dst, `\t`...)
			case '\n':
				dst = append(dst, `\n`...)
			case '\f':
				dst = append(dst, `\f`...)
			case '\r':
				dst = append(dst, `\r`...)
			default:
				if c < 0x20 || c == 0x7f {
					dst = append(dst, `\u00`...)
					dst = append(dst, hexDigits[c>>4], hexDigits[c&0xf])
				} else {
					dst = append(dst, c)
				}
			}
			i++
			continue
		}
		n, ok := jqNext(s[i:])
		if ok {
			dst = append(dst, s[i:i+n]...)
		} else {
			dst = append(dst, "\uFFFD"...)
		}
		i += n
	}
	return append(dst, '"')
}

// jqNext decodes the non-ASCII sequence at the start of s as jq 1.6's
// jvp_utf8_next does: n bytes are consumed, and ok is false when they are
// replaced by one U+FFFD. A stray or invalid lead byte is one bad byte; a
// lead byte cut short by the end of s takes the rest of s; a lead byte
// followed by too few continuation bytes takes the ones it has; overlong
// forms, surrogates and code points above U+10FFFF are bad as a whole.
func jqNext(s string) (n int, ok bool) {
	c := s[0]
	var length int
	var cp rune
	switch {
	case c >= 0xc2 && c <= 0xdf:
		length, cp = 2, rune(c&0x1f)
	case c >= 0xe0 && c <= 0xef:
		length, cp = 3, rune(c&0x0f)
	case c >= 0xf0 && c <= 0xf4:
		length, cp = 4, rune(c&0x07)
	default: // continuation byte, C0, C1, F5..FF
		return 1, false
	}
	if length > len(s) {
		return len(s), false
	}
	for i := 1; i < length; i++ {
		ch := s[i]
		if ch&0xc0 != 0x80 {
			return i, false
		}
		cp = cp<<6 | rune(ch&0x3f)
	}
	first := [...]rune{0, 0, 0x80, 0x800, 0x10000}
	if cp < first[length] || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff {
		return length, false
	}
	return length, true
}
