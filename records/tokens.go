package records

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

// QueryTokens tokenises a --keyword value: ASCII-lowercase, split on every
// byte outside [a-z0-9], drop tokens shorter than two bytes, deduplicate
// (first occurrence order).
func QueryTokens(s string) []string {
	var d dedup
	eachAlnumToken([]byte(s), false, d.add)
	return d.out
}

// dedup collects tokens in first-occurrence order, in linear time.
type dedup struct {
	out  []string
	seen map[string]struct{}
}

func (d *dedup) add(tok []byte) {
	if _, dup := d.seen[string(tok)]; dup {
		return
	}
	if d.seen == nil {
		d.seen = map[string]struct{}{}
	}
	t := string(tok)
	d.seen[t] = struct{}{}
	d.out = append(d.out, t)
}

// KeywordTokens tokenises a record's keywords the way ranking sees them:
// each value has "[" and "]" removed and is then split like [QueryTokens];
// the result is deduplicated across all values in first-occurrence order.
// Its length is the record's document length.
func KeywordTokens(values ...string) []string {
	var d dedup
	for _, v := range values {
		eachAlnumToken([]byte(v), true, d.add)
	}
	return d.out
}

// eachAlnumToken calls fn with every lowercased run of [A-Za-z0-9] of s that
// is at least MinTokenLen long; with dropBrackets, "[" and "]" are removed
// first (§9.2) instead of separating. The slice is only valid during the
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

// LinkTokens splits a links value the way --links-to compares it: "{", "}",
// "[", "]" and "," become spaces, the text is split on whitespace, and every
// quote character is removed from each token.
func LinkTokens(v string) []string {
	var out []string
	eachLinkToken([]byte(v), func(t []byte) { out = append(out, string(t)) })
	return out
}

func eachLinkToken(s []byte, fn func([]byte)) {
	var buf [128]byte
	tok := buf[:0]
	flush := func() {
		if len(tok) > 0 {
			fn(tok)
		}
		tok = tok[:0]
	}
	for _, c := range s {
		switch {
		case c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || isSpace(c):
			flush()
		case c == '"' || c == '\'':
		default:
			tok = append(tok, c)
		}
	}
	flush()
}
