package recordwrite

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/procedures-go/procedures/internal/jqtext"
	"slices"
	"strings"
	"unicode/utf8"
)

// A Kind says how a frontmatter value is meant to be read.
type Kind int

const (
	// Scalar is a string. It is written as given when it reads back as
	// itself, else as a YAML double-quoted string.
	Scalar Kind = iota
	// Fragment is YAML text given by the user, such as "[a, b]" or
	// "{ decisions: [dec.x] }". It is written as given when it is one line
	// of valid YAML, else as a double-quoted string holding the text.
	Fragment
	// JSONString is a string written as a JSON string literal (jq escaping),
	// or as a YAML double-quoted string when the literal would not read back
	// as the same string in YAML.
	JSONString
	// FlowMap is a mapping of Sub keys to string values, written on one line
	// in flow form: "{ k: v, k2: v2 }".
	FlowMap
)

// A Field is one frontmatter key and its value.
type Field struct {
	Key   string
	Kind  Kind
	Value string  // Scalar, Fragment, JSONString
	Sub   []Field // FlowMap: Scalar fields in order
}

// A Record is a record file: frontmatter fields in order, then the body.
type Record struct {
	Fields []Field
	Body   []byte // everything after the closing fence
}

// ErrInvalidUTF8 is returned when a frontmatter value is not valid UTF-8:
// YAML cannot hold it.
var ErrInvalidUTF8 = errors.New("not valid UTF-8")

// ErrReadBack is returned when a rendered record does not read back as the
// fields it was rendered from.
var ErrReadBack = errors.New("the rendered record does not read back as written")

// A FieldError names the field a rendering error is about.
type FieldError struct {
	Key string
	Err error
}

func (e *FieldError) Error() string { return e.Key + ": " + e.Err.Error() }
func (e *FieldError) Unwrap() error { return e.Err }

// Render renders r and proves the result by reading it back with the
// records parser: the block must be valid YAML holding exactly r's keys, in
// order, with r's values, followed by r's body.
func (r Record) Render() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("---\n")
	for _, f := range r.Fields {
		v, err := f.render()
		if err != nil {
			return nil, err
		}
		b.WriteString(f.Key)
		b.WriteByte(':')
		if v != "" {
			b.WriteByte(' ')
			b.WriteString(v)
		}
		b.WriteByte('\n')
	}
	b.WriteString("---\n")
	b.Write(r.Body)
	out := b.Bytes()
	if err := r.verify(out); err != nil {
		return nil, err
	}
	return out, nil
}

// render returns the text after "key: ".
func (f Field) render() (string, error) {
	switch f.Kind {
	case FlowMap:
		if len(f.Sub) == 0 {
			return "{}", nil
		}
		parts := make([]string, len(f.Sub))
		for i, s := range f.Sub {
			if !utf8.ValidString(s.Value) {
				return "", &FieldError{f.Key + "." + s.Key, ErrInvalidUTF8}
			}
			v := s.Value
			if !plainInFlow(f.Key, s.Key, v) {
				v = Quote(v)
			}
			parts[i] = s.Key + ": " + v
		}
		return "{ " + strings.Join(parts, ", ") + " }", nil
	}
	if !utf8.ValidString(f.Value) {
		return "", &FieldError{f.Key, ErrInvalidUTF8}
	}
	switch f.Kind {
	case Fragment:
		if oneLine(f.Value) {
			if p := parse(block(f.Key, f.Value)); p.clean() && slices.Equal(p.keys(), []string{f.Key}) {
				return f.Value, nil
			}
		}
		return Quote(f.Value), nil
	case JSONString:
		if oneLine(f.Value) {
			lit := string(jqtext.AppendString(nil, f.Value))
			if p := parse(block(f.Key, lit)); p.clean() && p.scalar(f.Key) == f.Value {
				return lit, nil
			}
		}
		return Quote(f.Value), nil
	default:
		if oneLine(f.Value) {
			if p := parse(block(f.Key, f.Value)); p.clean() && slices.Equal(p.keys(), []string{f.Key}) &&
				p.scalar(f.Key) == f.Value && slices.Equal(p.leaves(f.Key), nonEmpty(f.Value)) {
				return f.Value, nil
			}
		}
		return Quote(f.Value), nil
	}
}

func nonEmpty(v string) []string {
	if v == "" {
		return nil
	}
	return []string{v}
}

// plainInFlow reports whether v can stand unquoted as the value of sub in
// a flow mapping under key.
func plainInFlow(key, sub, v string) bool {
	if !oneLine(v) || v == "" {
		return false
	}
	p := parse(block(key, "{ "+sub+": "+v+" }"))
	return p.clean() && slices.Equal(p.keys(), []string{key}) && slices.Equal(p.leaves(key), []string{v})
}

func block(key, v string) []byte { return []byte("---\n" + key + ": " + v + "\n---\n") }

// oneLine reports whether v holds no character that YAML reads as a line
// break or refuses in plain text: C0 and C1 controls, DEL, U+2028, U+2029,
// and the byte-order mark or a non-character.
func oneLine(v string) bool {
	for _, r := range v {
		if needsEscape(r) {
			return false
		}
	}
	return true
}

func needsEscape(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x2028 || r == 0x2029 ||
		r == 0xfeff || r == 0xfffe || r == 0xffff
}

// Quote renders v (valid UTF-8) as a one-line YAML double-quoted string.
func Quote(v string) string {
	var b strings.Builder
	b.Grow(len(v) + 2)
	b.WriteByte('"')
	for _, r := range v {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case 0:
			b.WriteString(`\0`)
		case 0x85:
			b.WriteString(`\N`)
		case 0x2028:
			b.WriteString(`\L`)
		case 0x2029:
			b.WriteString(`\P`)
		default:
			switch {
			case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
				fmt.Fprintf(&b, `\x%02X`, r)
			case needsEscape(r):
				fmt.Fprintf(&b, `\u%04X`, r)
			default:
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// verify reads out back and compares it with r.
func (r Record) verify(out []byte) error {
	p := parse(out)
	fail := func(key string) error { return &FieldError{key, ErrReadBack} }
	if !p.clean() {
		return fail("frontmatter")
	}
	want := make([]string, len(r.Fields))
	for i, f := range r.Fields {
		want[i] = f.Key
	}
	if !slices.Equal(p.keys(), want) {
		return fail("keys")
	}
	for _, f := range r.Fields {
		switch f.Kind {
		case Scalar, JSONString:
			if p.scalar(f.Key) != f.Value {
				return fail(f.Key)
			}
		case FlowMap:
			var vals []string
			for _, s := range f.Sub {
				vals = append(vals, s.Value)
			}
			if !slices.Equal(p.leaves(f.Key), vals) {
				return fail(f.Key)
			}
		}
	}
	if !bytes.Equal(p.body(), r.Body) {
		return fail("body")
	}
	return nil
}
