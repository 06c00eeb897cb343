package recall

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/procedures-go/procedures/internal/corpus"
)

// fields are the mistakes.jsonl fields a recall search reads.
var fields = []string{"pattern", "description", "correction", "face", "category", "skill", "summary", "what", "fix"}

// DefaultCap is how many of the most recent recall hits a caller
// shows by default.
const DefaultCap = 20

// Fields returns the mistakes.jsonl fields a recall search reads, in
// order.
func Fields() []string { return slices.Clone(fields) }

// Terms tokenises a recall search text: ASCII-lowercase, split on
// whitespace, keep terms holding at least two bytes of [a-z0-9] in total
// (punctuation stays inside a term), deduplicate.
func Terms(s string) []string {
	var out []string
	seen := map[string]struct{}{}
	b := []byte(s)
	for len(b) > 0 {
		b = trimLeftSpace(b)
		i := 0
		for i < len(b) && !isSpace(b[i]) {
			i++
		}
		term := b[:i]
		b = b[i:]
		if len(term) == 0 {
			break
		}
		n := 0
		low := make([]byte, len(term))
		for j, c := range term {
			low[j] = lowerASCII(c)
			if isAlnum(low[j]) {
				n++
			}
		}
		if n < corpus.MinTokenLen {
			continue
		}
		if _, dup := seen[string(low)]; !dup {
			seen[string(low)] = struct{}{}
			out = append(out, string(low))
		}
	}
	return out
}

// MaxParts caps the words a recall search may match, summed over its
// terms (a term "a-b c" is one phrase of two words and one of one). Matching
// costs at most that many word comparisons per byte of a line, so a search
// stays linear in the store.
const MaxParts = 64

// PartsError refuses recall terms holding more than [MaxParts]
// words in total; nothing is searched.
type PartsError struct{ Words int }

func (e *PartsError) Error() string {
	return "recall terms hold " + strconv.Itoa(e.Words) + " words; at most " + strconv.Itoa(MaxParts) + " are allowed"
}
func (e *PartsError) Is(target error) bool { return target == corpus.ErrUsage }

// checkParts refuses terms holding more than [MaxParts] words.
func checkParts(terms []string) error {
	n := 0
	for _, t := range terms {
		eachRun([]byte(t), func([]byte) { n++ })
	}
	if n > MaxParts {
		return &PartsError{Words: n}
	}
	return nil
}

// File returns the lines of a mistakes.jsonl file that match any of
// terms, in file order (see [Match]). Terms beyond [MaxParts]
// words are refused first (a *PartsError); a file that cannot be read
// is a *ScanError naming name.
func File(name string, terms []string) ([][]byte, error) {
	if err := checkParts(terms); err != nil {
		return nil, err
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, &corpus.ScanError{Path: name, Err: err}
	}
	defer f.Close()
	hits, err := Search(f, terms)
	if err != nil {
		return nil, &corpus.ScanError{Path: name, Err: err}
	}
	return hits, nil
}

// Search returns the LF-separated lines of r (a final line without LF
// counts) that match any of terms, unchanged, in order. Terms beyond
// [MaxParts] words are refused (a *PartsError) before anything is read.
func Search(r io.Reader, terms []string) ([][]byte, error) {
	if err := checkParts(terms); err != nil {
		return nil, err
	}
	pats := make([][][]byte, len(terms))
	for i, t := range terms {
		pats[i] = termParts(t)
	}
	br := bufio.NewReaderSize(r, 64<<10)
	var hits [][]byte
	var m recallMatcher
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			full := append([]byte(nil), line...)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice('\n')
				full = append(full, line...)
			}
			line = full
		}
		if len(line) > 0 {
			body := bytes.TrimSuffix(line, []byte("\n"))
			if m.match(body, pats) {
				hits = append(hits, append([]byte(nil), body...))
			}
		}
		if err == io.EOF {
			return hits, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// Match reports whether one mistakes.jsonl line matches any term.
// For each field of Fields the leftmost `"F"<sp/tab>*:<sp/tab>*"`
// gives its string value (JSON escapes decoded); a term is split on runs of
// non-[a-z0-9] into parts that must appear in one field, in order, joined
// by non-alphanumeric bytes, as whole words. Case is ignored (ASCII).
func Match(line []byte, terms []string) bool {
	pats := make([][][]byte, len(terms))
	for i, t := range terms {
		pats[i] = termParts(t)
	}
	var m recallMatcher
	return m.match(line, pats)
}

func termParts(term string) [][]byte {
	var parts [][]byte
	eachRun([]byte(term), func(p []byte) { parts = append(parts, append([]byte(nil), p...)) })
	return parts
}

// eachRun calls fn with each lowercased run of [A-Za-z0-9] (any length).
func eachRun(s []byte, fn func([]byte)) {
	start := -1
	low := make([]byte, len(s))
	for i, c := range s {
		low[i] = lowerASCII(c)
		if isAlnum(low[i]) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			fn(low[start:i])
			start = -1
		}
	}
	if start >= 0 {
		fn(low[start:])
	}
}

type recallMatcher struct {
	vals [][]byte
	buf  []byte
}

func (m *recallMatcher) match(line []byte, pats [][][]byte) bool {
	m.buf = m.buf[:0]
	m.vals = m.vals[:0]
	type span struct{ lo, hi int }
	var spans [9]span
	for i, f := range fields {
		lo := len(m.buf)
		if v, ok := fieldValue(line, f); ok {
			m.buf = decodeJSONString(m.buf, v)
		}
		spans[i] = span{lo, len(m.buf)}
	}
	for i := range m.buf {
		m.buf[i] = lowerASCII(m.buf[i])
	}
	for _, s := range spans {
		m.vals = append(m.vals, m.buf[s.lo:s.hi])
	}
	for _, parts := range pats {
		for _, v := range m.vals {
			if phraseIn(v, parts) {
				return true
			}
		}
	}
	return false
}

// fieldValue finds the leftmost `"F"[ \t]*:[ \t]*"` in line and returns the
// raw bytes after the opening quote (to the end of the line).
func fieldValue(line []byte, f string) ([]byte, bool) {
	key := `"` + f + `"`
	for off := 0; ; {
		i := bytes.Index(line[off:], []byte(key))
		if i < 0 {
			return nil, false
		}
		j := off + i + len(key)
		for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
			j++
		}
		if j < len(line) && line[j] == ':' {
			j++
			for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
				j++
			}
			if j < len(line) && line[j] == '"' {
				return line[j+1:], true
			}
		}
		off += i + 1
	}
}

// decodeJSONString appends the JSON string starting at raw (after its
// opening quote) to dst, decoding escapes, up to the closing quote or the
// end of raw. A backslash before any other byte keeps that byte.
func decodeJSONString(dst, raw []byte) []byte {
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '"' {
			return dst
		}
		if c != '\\' {
			dst = append(dst, c)
			continue
		}
		i++
		if i >= len(raw) {
			return dst
		}
		switch e := raw[i]; e {
		case 'n':
			dst = append(dst, '\n')
		case 't':
			dst = append(dst, '\t')
		case 'r':
			dst = append(dst, '\r')
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'u':
			r, n := hex4(raw[i+1:])
			if n == 0 {
				dst = append(dst, 'u')
				continue
			}
			i += n
			if r >= 0xD800 && r < 0xDC00 && i+2 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
				if r2, n2 := hex4(raw[i+3:]); n2 > 0 && r2 >= 0xDC00 && r2 < 0xE000 {
					r = 0x10000 + (r-0xD800)<<10 + (r2 - 0xDC00)
					i += 2 + n2
				}
			}
			dst = utf8.AppendRune(dst, r)
		default:
			dst = append(dst, e)
		}
	}
	return dst
}

func hex4(b []byte) (rune, int) {
	if len(b) < 4 {
		return 0, 0
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, 0
		}
	}
	return r, 4
}

// phraseIn reports whether v holds parts[0], one or more non-alphanumeric
// bytes, parts[1], ..., as whole words.
func phraseIn(v []byte, parts [][]byte) bool {
	if len(parts) == 0 {
		return false
	}
	for off := 0; off < len(v); {
		i := bytes.Index(v[off:], parts[0])
		if i < 0 {
			return false
		}
		start := off + i
		if start == 0 || !isAlnum(v[start-1]) {
			if phraseAt(v, start, parts) {
				return true
			}
		}
		off = start + 1
	}
	return false
}

func phraseAt(v []byte, j int, parts [][]byte) bool {
	for k, p := range parts {
		if k > 0 {
			s := j
			for j < len(v) && !isAlnum(v[j]) {
				j++
			}
			if j == s {
				return false
			}
		}
		if !bytes.HasPrefix(v[j:], p) {
			return false
		}
		j += len(p)
	}
	return j == len(v) || !isAlnum(v[j])
}

// Byte classes are locale-independent: the C locale's [[:space:]], ASCII
// lowercasing, and [a-z0-9] as "alphanumeric" (as corpus's keyword tokens).

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func trimLeftSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	return b
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isAlnum(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') }
