package search

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

// MaxTermLen is the longest term kept, in bytes; a longer word is dropped
// (it is a hash, a data blob or a URL fragment, never a search word).
const MaxTermLen = 40

// An Analyzer turns text into terms. It is not safe for concurrent use
// (it caches stems); [Analyzer.Clone] makes one per goroutine sharing the
// abbreviation list.
type Analyzer struct {
	abbrev map[string][]string // abbreviation -> its expansion's terms (stemmed)
	stems  map[string]string
	word   []rune
}

// NewAnalyzer returns an analyzer with [DefaultAbbreviations] and then
// extra (a store's list: an entry there replaces a default one).
func NewAnalyzer(extra map[string]string) *Analyzer {
	a := &Analyzer{abbrev: map[string][]string{}, stems: map[string]string{}}
	for _, d := range defaultAbbreviations {
		a.addAbbrev(d[0], d[1])
	}
	for k, v := range extra {
		a.addAbbrev(k, v)
	}
	return a
}

func (a *Analyzer) addAbbrev(short, long string) {
	short = foldWord(short)
	var terms []string
	for _, w := range splitWords(long) {
		if isStopWord(w) {
			continue
		}
		terms = append(terms, stem(w))
	}
	if short != "" && len(terms) > 0 {
		a.abbrev[short] = terms
	}
}

// Clone returns an analyzer sharing a's abbreviations, with its own cache.
func (a *Analyzer) Clone() *Analyzer {
	return &Analyzer{abbrev: a.abbrev, stems: map[string]string{}}
}

// maxStemCache bounds an analyzer's stem cache.
const maxStemCache = 1 << 16

// Each calls fn with every term of text, in order, repeats included:
// stop words dropped unless keepStop, abbreviations followed by their
// expansion.
func (a *Analyzer) Each(text string, keepStop bool, fn func(term string)) {
	a.eachWord(text, func(w string) {
		if !keepStop && isStopWord(w) {
			return
		}
		fn(a.stem(w))
		for _, t := range a.abbrev[w] {
			fn(t)
		}
	})
}

// Terms is the distinct terms of a query text, in first-occurrence order:
// its non-stop words, or all its words when every one is a stop word.
func (a *Analyzer) Terms(text string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(t string) {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	a.Each(text, false, add)
	if len(out) == 0 {
		a.Each(text, true, add)
	}
	return out
}

func (a *Analyzer) stem(w string) string {
	if s, ok := a.stems[w]; ok {
		return s
	}
	s := stem(w)
	if len(a.stems) >= maxStemCache {
		clear(a.stems)
	}
	a.stems[w] = s
	return s
}

func stem(w string) string {
	if !isASCIILetters(w) {
		return w // the stemmer knows English: digits and other scripts stay whole
	}
	return english.Stem(w, true)
}

func isASCIILetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// eachWord calls fn with every folded word of text (see [foldWord]) and,
// for a camel-cased one, its parts too.
func (a *Analyzer) eachWord(text string, fn func(string)) {
	for len(text) > 0 {
		i := strings.IndexFunc(text, isWordRune)
		if i < 0 {
			return
		}
		text = text[i:]
		j := strings.IndexFunc(text, func(r rune) bool { return !isWordRune(r) })
		if j < 0 {
			j = len(text)
		}
		raw := text[:j]
		text = text[j:]
		if len(raw) > MaxTermLen {
			continue
		}
		w := foldWord(raw)
		if len(w) < 2 && !isDigits(w) {
			continue
		}
		fn(w)
		if mayHaveParts(raw) {
			a.eachCamelPart(raw, w, fn)
		}
	}
}

// eachCamelPart calls fn with the parts of a camel-cased word ("TrimSuffix",
// "getHTTPClient": get, http, client) other than the whole folded word w.
func (a *Analyzer) eachCamelPart(raw, w string, fn func(string)) {
	a.word = a.word[:0]
	for _, r := range raw {
		a.word = append(a.word, r)
	}
	rs := a.word
	start := 0
	var parts []string
	for k := 1; k <= len(rs); k++ {
		boundary := k == len(rs)
		if !boundary {
			prev, cur := rs[k-1], rs[k]
			switch {
			case unicode.IsLower(prev) && unicode.IsUpper(cur):
				boundary = true
			case unicode.IsUpper(prev) && unicode.IsUpper(cur) && k+1 < len(rs) && unicode.IsLower(rs[k+1]):
				boundary = true
			case unicode.IsLetter(prev) != unicode.IsLetter(cur):
				boundary = true
			}
		}
		if boundary {
			parts = append(parts, foldWord(string(rs[start:k])))
			start = k
		}
	}
	if len(parts) < 2 {
		return
	}
	for _, p := range parts {
		if p != w && (len(p) >= 2 || isDigits(p)) {
			fn(p)
		}
	}
}

// mayHaveParts reports whether a word may split into camel-case parts: it
// has an upper-case letter after its first byte, mixes letters and
// digits, or is not ASCII.
func mayHaveParts(raw string) bool {
	letter, digit := false, false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c >= utf8.RuneSelf:
			return true
		case c >= 'A' && c <= 'Z':
			if i > 0 {
				return true
			}
			letter = true
		case c >= '0' && c <= '9':
			digit = true
		default:
			letter = true
		}
	}
	return letter && digit
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func isDigits(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return w != ""
}

// splitWords is the folded words of s, without camel parts.
func splitWords(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return !isWordRune(r) }) {
		if w := foldWord(f); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// foldWord lowers a word (Unicode simple case folding to lower case) and
// replaces the common accented Latin letters by their base letter.
func foldWord(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf || s[i] >= 'A' && s[i] <= 'Z' {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		r = unicode.ToLower(r)
		if base, ok := accents()[r]; ok {
			b.WriteString(base)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// accents maps the accented lower-case Latin letters to their base
// letters (made on first use: most commands never search).
var accents = sync.OnceValue(func() map[rune]string {
	m := map[rune]string{'ß': "ss", 'æ': "ae", 'œ': "oe", 'ø': "o", 'đ': "d", 'ł': "l", 'ı': "i"}
	for base, set := range map[string]string{
		"a": "àáâãäåāăą", "c": "çćĉċč", "d": "ď", "e": "èéêëēĕėęě", "g": "ĝğġģ",
		"h": "ĥħ", "i": "ìíîïĩīĭįi̇", "j": "ĵ", "k": "ķ", "l": "ĺļľŀ", "n": "ñńņňŉ",
		"o": "òóôõöōŏő", "r": "ŕŗř", "s": "śŝşšș", "t": "ţťŧț", "u": "ùúûüũūŭůűų",
		"w": "ŵ", "y": "ýÿŷ", "z": "źżž",
	} {
		for _, r := range set {
			if r >= utf8.RuneSelf {
				m[r] = base
			}
		}
	}
	return m
})

// Words maps each term of text to the first word of text it comes from
// (an abbreviation's expansion terms map to the abbreviation): what a
// person would type for a term.
func (a *Analyzer) Words(text string) map[string]string {
	out := map[string]string{}
	a.eachWord(text, func(w string) {
		if isStopWord(w) {
			return
		}
		if t := a.stem(w); out[t] == "" {
			out[t] = w
		}
		for _, t := range a.abbrev[w] {
			if out[t] == "" {
				out[t] = w
			}
		}
	})
	return out
}
