package logrecord

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxShown caps how much of one input value a message echoes.
const maxShown = 200

// quoted returns v for a message, in single quotes as before when it is
// printable text; otherwise (a control or invisible character, bytes that
// are not UTF-8) Go-quoted with every such character escaped, so a terminal
// escape sequence never reaches stderr raw. A value over maxShown bytes is
// cut and marked.
func quoted(v string) string {
	v, cut := clip(v)
	if printable(v) && !strings.ContainsRune(v, '\'') {
		return "'" + v + "'" + cut
	}
	return strconv.Quote(v) + cut
}

// shown is quoted without the quotes for printable text (a flag name, a
// kind, as echoed before).
func shown(v string) string {
	v, cut := clip(v)
	if printable(v) {
		return v + cut
	}
	return strconv.Quote(v) + cut
}

func clip(v string) (string, string) {
	if len(v) <= maxShown {
		return v, ""
	}
	k := maxShown
	for k > 0 && !utf8.RuneStart(v[k]) {
		k--
	}
	return v[:k], fmt.Sprintf("… (%d bytes)", len(v))
}

func printable(v string) bool {
	for _, r := range v {
		if !visibleRune(r) {
			return false
		}
	}
	return utf8.ValidString(v)
}

func visibleRune(r rune) bool {
	return r != utf8.RuneError && unicode.IsPrint(r) || r == ' '
}

// visible escapes, in a whole message, every character a terminal could
// act on (controls, invisible formatting characters, bytes that are not
// UTF-8) as \xNN or \uNNNN: the last guard on what reaches stderr.
func visible(msg string) string {
	if printable(msg) {
		return msg
	}
	var b strings.Builder
	for i := 0; i < len(msg); {
		r, n := utf8.DecodeRuneInString(msg[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, msg[i])
		case visibleRune(r):
			b.WriteString(msg[i : i+n])
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += n
	}
	return b.String()
}
