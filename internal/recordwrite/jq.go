package recordwrite

import "strconv"

// AppendJQString appends s to dst as jq 1.6 writes a string: invalid UTF-8
// is first replaced by U+FFFD the way jq reads its arguments, then `"` and
// `\` are escaped, BS, TAB, LF, FF and CR become \b \t \n \f \r, every other
// C0 control and DEL becomes \u00xx (lowercase hex), and everything else
// (including "/", "<", U+2028 and U+2029) is written raw.
func AppendJQString(dst []byte, s string) []byte {
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
					dst = append(dst, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&0xf])
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

// A Mistake is one row of mistakes.jsonl. Every field is a string;
// ScenarioMatched "null" is written as JSON null.
type Mistake struct {
	TS, Project, Session, Category, Trigger, Description, Correction, Skill, Severity string
	ScenarioMatched                                                                   string
	Pattern, Face, RecurrenceOf                                                       string // written only when not empty
}

// Row renders m as the one compact JSON line (LF included) that jq -c
// writes: keys in the documented order, pattern, face and recurrence_of
// only when not empty.
func (m Mistake) Row() []byte {
	b := make([]byte, 0, 256)
	add := func(k, v string) {
		if len(b) == 0 {
			b = append(b, '{')
		} else {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, k) // keys are plain ASCII
		b = append(b, ':')
		b = AppendJQString(b, v)
	}
	add("ts", m.TS)
	add("project", m.Project)
	add("session", m.Session)
	add("category", m.Category)
	add("trigger", m.Trigger)
	add("description", m.Description)
	add("correction", m.Correction)
	add("skill", m.Skill)
	add("severity", m.Severity)
	if m.ScenarioMatched == "null" {
		b = append(b, `,"scenario_matched":null`...)
	} else {
		add("scenario_matched", m.ScenarioMatched)
	}
	for _, kv := range [][2]string{{"pattern", m.Pattern}, {"face", m.Face}, {"recurrence_of", m.RecurrenceOf}} {
		if kv[1] != "" {
			add(kv[0], kv[1])
		}
	}
	return append(b, '}', '\n')
}
