package corpus

import (
	"bytes"
	"unicode/utf8"

	"github.com/procedures-go/procedures/internal/frontmatter"
)

// A Record is one corpus file as queries see it.
type Record struct {
	Path     string   // relative to the corpus root, store spelled as configured
	ID       string   // the id: scalar, as an ID query compares it (see ParseRecord)
	Kind     string   // the kind: scalar; also the ranking bucket
	Project  string   // the project: scalar
	Status   string   // the status: scalar
	Keywords []string // the keywords: values (YAML leaves, or the raw line)
	Links    []string // the link tokens a LinksTo query compares against
	Gloss    string   // one-line description: first non-blank body line
	Score    float64  // keyword rank score; 0 on structural queries
}

// ParseRecord reads a record's fields from its content. Scalars follow the
// YAML reading of the frontmatter: a quoted value is taken whole, a plain
// value is its first word (as upstream), null is "". When the block is not
// a YAML mapping the line-based reading (see [Frontmatter.Lines]) is used. CRLF
// line ends are read as LF. Path is copied into the result.
func ParseRecord(path string, content []byte) Record {
	var v recView
	v.parse(normalizeCRLF(nil, content))
	return *recordOf(path, &v)
}

// recView is a parsed record, reusable across records to avoid
// allocation. Slices point into the content.
type recView struct {
	present, terminated bool
	body                []byte
	fields              frontmatter.Fields
	yamlErr             *frontmatter.YAMLError
}

func (v *recView) parse(content []byte) {
	v.present, v.terminated, _, v.body, v.yamlErr = frontmatter.Read(content, &v.fields)
}

// parseHead parses a file's head as a cold scan reads it and reports
// whether the record takes part: a 0-byte file does not, CRLF line ends
// read as LF (normalised into *crlfBuf), and a frontmatter not closed
// within a capped head is skipped.
func (v *recView) parseHead(content []byte, capped bool, crlfBuf *[]byte) bool {
	if len(content) == 0 {
		return false
	}
	if bytes.Contains(content, crlf) {
		*crlfBuf = normalizeCRLF((*crlfBuf)[:0], content)
		content = *crlfBuf
	}
	v.parse(content)
	return !(capped && v.present && !v.terminated)
}

// scalar is a scalar field as queries compare it: a quoted YAML value
// whole, a plain one up to its first whitespace, the line view as [Frontmatter.Scalar] reads it.
func (v *recView) scalar(key string) []byte {
	b, quoted := v.fields.ScalarBytes(key)
	if !quoted {
		for i, c := range b {
			if frontmatter.IsSpace(c) {
				return b[:i]
			}
		}
	}
	return b
}

// eachLink calls fn with every link token. In the line view a token ending
// in ":" is a sub-key ("decisions:") and is skipped, as YAML would.
func (v *recView) eachLink(fn func([]byte)) {
	i := v.fields.Find("links")
	if i < 0 {
		return
	}
	raw := v.fields.IsLine(i)
	v.fields.EachLeaf(i, func(b []byte) {
		eachLinkToken(b, func(t []byte) {
			if raw && t[len(t)-1] == ':' {
				return
			}
			fn(t)
		})
	})
}

func (v *recView) eachLeaf(key string, fn func([]byte)) {
	if i := v.fields.Find(key); i >= 0 {
		v.fields.EachLeaf(i, fn)
	}
}

// GlossMax is the longest gloss; longer ones are cut to GlossMax-3 bytes
// (never inside a UTF-8 character) plus "...".
const GlossMax = 90

// gloss is the title line of a body; unterminated frontmatter has no
// body and glosses as "(record)".
func gloss(body []byte, unterminated bool) string {
	return string(appendGloss(nil, body, unterminated))
}

// appendGloss appends [gloss] of body to dst.
func appendGloss(dst, body []byte, unterminated bool) []byte {
	const none = "(record)"
	if unterminated {
		return append(dst, none...)
	}
	var line []byte
	for len(body) > 0 {
		l := body
		if i := bytes.IndexByte(body, '\n'); i >= 0 {
			l, body = body[:i], body[i+1:]
		} else {
			body = nil
		}
		if len(frontmatter.TrimLeftSpace(l)) > 0 {
			line = l
			break
		}
	}
	if line == nil {
		return append(dst, none...)
	}
	if h := headingLen(line); h > 0 {
		line = line[h:]
	}
	// Runs of whitespace become one space, none at either end; the words
	// between are appended whole.
	start := len(dst)
	for len(line) > 0 {
		i := 0
		for i < len(line) && frontmatter.IsSpace(line[i]) {
			i++
		}
		if i == len(line) {
			break
		}
		if i > 0 && len(dst) > start {
			dst = append(dst, ' ')
		}
		j := i
		for j < len(line) && !frontmatter.IsSpace(line[j]) {
			j++
		}
		dst = append(dst, line[i:j]...)
		line = line[j:]
	}
	out := dst[start:]
	if len(out) == 0 {
		return append(dst, none...)
	}
	if len(out) > GlossMax {
		dst = append(dst[:start+cutUTF8(out, GlossMax-3)], "..."...)
	}
	return dst
}

// headingLen is the length of a leading "#+<whitespace>" heading marker, or
// 0 when the line is not a heading.
func headingLen(line []byte) int {
	i := 0
	for i < len(line) && line[i] == '#' {
		i++
	}
	if i == 0 || i == len(line) || !frontmatter.IsSpace(line[i]) {
		return 0
	}
	return i
}

// cutUTF8 returns the largest n <= max such that b[:n] does not end inside
// a valid UTF-8 character. Bytes that are not part of a valid character
// count as one character each.
func cutUTF8(b []byte, max int) int {
	for back := 1; back <= utf8.UTFMax-1 && back <= max; back++ {
		start := max - back
		if !utf8.RuneStart(b[start]) {
			continue
		}
		if r, n := utf8.DecodeRune(b[start:]); (r != utf8.RuneError || n > 1) && start+n > max {
			return start
		}
		break
	}
	return max
}
