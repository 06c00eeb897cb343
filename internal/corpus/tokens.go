package corpus

import (
	"bytes"

	"github.com/procedures-go/procedures/internal/frontmatter"
)

// Text handling is byte-oriented and locale-independent: lowercasing is
// ASCII-only and "alphanumeric" is [a-z0-9] after lowercasing.

// MinTokenLen is the shortest keyword token that counts.
const MinTokenLen = 2

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isAlnum(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') }

// QueryTokens tokenises a keyword search text ([Query].Keyword):
// ASCII-lowercase, split on every byte outside [a-z0-9], drop tokens shorter
// than two bytes, deduplicate (first occurrence order).
func QueryTokens(s string) []string { return uniqueTokens(false, s) }

// keywordTokens tokenises a record's keywords the way ranking sees them:
// each value has "[" and "]" removed and is then split like [QueryTokens];
// the result is deduplicated across all values in first-occurrence order.
// Its length is the record's document length.
func keywordTokens(values ...string) []string { return uniqueTokens(true, values...) }

// uniqueTokens is every [eachAlnumToken] token of values, deduplicated in
// first-occurrence order through a set: linear in the tokens, however many
// one record holds.
func uniqueTokens(dropBrackets bool, values ...string) []string {
	var out []string
	seen := map[string]struct{}{}
	for _, v := range values {
		eachAlnumToken([]byte(v), dropBrackets, func(tok []byte) {
			if _, dup := seen[string(tok)]; !dup {
				seen[string(tok)] = struct{}{}
				out = append(out, string(tok))
			}
		})
	}
	return out
}

// eachAlnumToken calls fn with every lowercased run of [A-Za-z0-9] of s that
// is at least MinTokenLen long; with dropBrackets, "[" and "]" are removed
// first instead of separating. The slice is only valid during the
// call.
func eachAlnumToken(s []byte, dropBrackets bool, fn func([]byte)) {
	var buf [64]byte
	tok := buf[:0]
	flush := func() {
		if len(tok) >= MinTokenLen {
			fn(tok)
		}
		tok = tok[:0]
	}
	for _, c := range s {
		if dropBrackets && (c == '[' || c == ']') {
			continue
		}
		c = lowerASCII(c)
		if isAlnum(c) {
			tok = append(tok, c)
		} else {
			flush()
		}
	}
	flush()
}

// splitLinkTokens splits a links value the way a LinksTo query compares it: "{", "}",
// "[", "]" and "," become spaces, the text is split on whitespace, and every
// quote character is removed from each token.
func splitLinkTokens(v string) []string {
	var out []string
	eachLinkToken([]byte(v), func(t []byte) { out = append(out, string(t)) })
	return out
}

// eachLinkToken calls fn with each token of a links value, as
// [splitLinkTokens] splits it. A token is a subslice of s (fn must not
// change it), unless a quote sits inside it: only then is it copied with
// its quotes dropped.
func eachLinkToken(s []byte, fn func([]byte)) {
	for i := 0; i < len(s); {
		if isLinkSep(s[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && !isLinkSep(s[j]) {
			j++
		}
		tok := s[i:j]
		i = j
		for len(tok) > 0 && isQuote(tok[0]) {
			tok = tok[1:]
		}
		for len(tok) > 0 && isQuote(tok[len(tok)-1]) {
			tok = tok[:len(tok)-1]
		}
		if len(tok) == 0 {
			continue
		}
		if bytes.IndexByte(tok, '"') >= 0 || bytes.IndexByte(tok, '\'') >= 0 {
			t := make([]byte, 0, len(tok))
			for _, c := range tok {
				if !isQuote(c) {
					t = append(t, c)
				}
			}
			tok = t
		}
		fn(tok)
	}
}

func isLinkSep(c byte) bool {
	return c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || frontmatter.IsSpace(c)
}

func isQuote(c byte) bool { return c == '"' || c == '\'' }
