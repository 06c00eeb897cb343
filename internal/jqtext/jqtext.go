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

// AppendString appends s as a JSON string the way jq 1.6 writes one: \" \\
// \n \t \r \b \f, every other control character and DEL as \u00xx (lower-case
// hex), everything else raw, including /, <, >, & and U+2028/U+2029. Invalid
// UTF-8 becomes U+FFFD.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	for _, r := range s { // an invalid byte ranges as U+FFFD
		switch {
		case r == '"':
			b = append(b, `\"`...)
		case r == '\\':
			b = append(b, `\\`...)
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\b':
			b = append(b, `\b`...)
		case r == '\f':
			b = append(b, `\f`...)
		case r < 0x20 || r == 0x7f:
			b = append(b, '\\', 'u', '0', '0', hexDigits[r>>4], hexDigits[r&0xf])
		default:
			b = append(b, string(r)...)
		}
	}
	return append(b, '"')
}
