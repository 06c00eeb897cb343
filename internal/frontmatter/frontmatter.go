package frontmatter

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"

	adrg "github.com/adrg/frontmatter"
	"go.yaml.in/yaml/v3"
)

// Frontmatter is a record's frontmatter block, split off per the
// fence rules below and decoded as YAML. When the block is not a
// valid YAML mapping, YAMLErr says why and every accessor falls back to the
// line-based reading of the upstream shell tools, so that nothing they could
// find is lost.
type Frontmatter struct {
	// Present is true when line 1 is exactly "---" (no trailing space, no CR).
	Present bool
	// Terminated is true when a later line exactly "---" closed the block;
	// otherwise the block runs to the end of the file.
	Terminated bool
	// Block holds the raw bytes between the fences (each line with its LF).
	Block []byte
	// Body is what follows the closing fence. It is the whole content when
	// there is no frontmatter, and nil when the block is unterminated.
	Body []byte
	// YAMLErr is non-nil when the block is not valid YAML, holds more than
	// one YAML document, is not a mapping, or hides a column-0 "key:" line
	// inside a value spanning lines (a quote or bracket left open above
	// it), which the line reading would see: the accessors then use the
	// line view (see [Frontmatter.Lines]).
	YAMLErr *YAMLError

	fields Fields
}

// YAMLError tells why a frontmatter block was read line by line.
type YAMLError struct {
	Line int // 1-based line in the file; 0 when the decoder did not say
	Msg  string
}

func (e *YAMLError) Error() string {
	if e.Line == 0 {
		return "frontmatter: " + e.Msg
	}
	return "frontmatter: line " + strconv.Itoa(e.Line) + ": " + e.Msg
}

// A KeyLine is one line of the block that starts at column 0 with
// "<key>:", where key is non-empty, holds no whitespace and does not start
// with "#". Value is the text after the colon with leading whitespace
// removed, otherwise raw (quotes and comments kept).
type KeyLine struct {
	Key   string
	Value string
	Line  int // 1-based line in the file
}

// Parse splits content into its frontmatter block and body and
// decodes the block (see [Read]). Fences: line 1 must be exactly
// "---" and the block ends at the next line exactly "---" (CRLF is not
// accepted; normalise first if you want it).
func Parse(content []byte) *Frontmatter {
	f := &Frontmatter{}
	f.Present, f.Terminated, f.Block, f.Body, f.YAMLErr = Read(content, &f.fields)
	return f
}

// Read is how every reader (Parse, the queries, the
// lint) splits a record and decodes its block into fs: through
// github.com/adrg/frontmatter ([parseLibrary]), with one optimisation in
// front of it. A record of the common shape, whose block is in the YAML
// subset record writers produce ([parseSimple]), is split and read without
// the library or a YAML decoder; the result is the library's, field for
// field (TestFastPathMatchesLibrary, FuzzFastPathMatchesLibrary). Anything
// else goes to the library. When the block is not YAML, fs holds the line
// view and yamlErr says why.
func Read(content []byte, fs *Fields) (present, terminated bool, block, body []byte, yamlErr *YAMLError) {
	present, terminated, block, body = SplitFences(content)
	if !present {
		fs.reset()
		return false, false, nil, body, nil
	}
	if parseSimple(block, fs) {
		return present, terminated, block, body, nil
	}
	return parseLibrary(content, fs)
}

// parseLibrary splits content with github.com/adrg/frontmatter and decodes
// the block with its format (go.yaml.in/yaml/v3 into a yaml.Node, see
// [unmarshalYAML]). Three rules of the upstream shell tools, which the
// commands keep byte for byte, narrow what the library accepts:
//
//   - the block opens only on a first line exactly "---" (the library also
//     skips blank lines before it and trims the line);
//   - a block the library finds no end for runs to the end of the file
//     (unterminated: no body), and is decoded as the library would have
//     decoded it had a fence followed;
//   - the library ends the block at the first line that trims to "---";
//     when that line is not exactly "---" (a "--- " or " ---" line inside
//     the block), the block runs on to the next exact one, and that block
//     is decoded by the same format.
func parseLibrary(content []byte, fs *Fields) (present, terminated bool, block, body []byte, yamlErr *YAMLError) {
	fs.reset()
	if string(content) != "---" && !bytes.HasPrefix(content, []byte("---\n")) {
		return false, false, nil, content, nil
	}
	var doc yaml.Node
	var handed []byte // the block the library handed to the format
	var decErr error
	called := false
	format := adrg.NewFormat(yamlFormat.Start, yamlFormat.End, func(b []byte, v any) error {
		called, handed = true, b
		decErr = yamlFormat.Unmarshal(b, v)
		return decErr
	})
	adrg.Parse(bytes.NewReader(content), &doc, format) // its error is decErr: the reader cannot fail
	start := min(4, len(content))
	switch {
	case !called: // no closing fence: the block runs to the end of the file
		block = content[start:]
		if hasFenceLike(block) {
			decErr = yamlFormat.Unmarshal(block, &doc)
		} else {
			decErr = yamlFormat.Unmarshal(withLF(block), &doc)
		}
		present, terminated = true, false
	case exactFence(content[start+len(handed):]):
		block = content[start : start+len(handed)]
		body = content[start+len(handed):]
		if i := bytes.IndexByte(body, '\n'); i >= 0 {
			body = body[i+1:]
		} else {
			body = body[len(body):]
		}
		present, terminated = true, true
	default: // the library stopped at a line that only trims to "---"
		present, terminated, block, body = SplitFences(content)
		doc = yaml.Node{}
		decErr = yamlFormat.Unmarshal(block, &doc)
	}
	if decErr != nil {
		yamlErr = yamlError(decErr.Error())
	} else {
		yamlErr = fieldsOf(&doc, block, fs)
	}
	if yamlErr != nil {
		lineFields(block, fs)
	}
	return present, terminated, block, body, yamlErr
}

// exactFence reports whether b starts with a line exactly "---".
func exactFence(b []byte) bool {
	return bytes.HasPrefix(b, []byte("---")) && (len(b) == 3 || b[3] == '\n')
}

// withLF is b with a final LF, as a block closed by a fence line ends.
func withLF(b []byte) []byte {
	if len(b) == 0 || b[len(b)-1] == '\n' {
		return b
	}
	return append(bytes.Clone(b), '\n')
}

// SplitFences applies the fence rules: an opening "---" line, closed by the
// next one.
func SplitFences(content []byte) (present, terminated bool, block, body []byte) {
	if !bytes.HasPrefix(content, []byte("---")) || (len(content) > 3 && content[3] != '\n') {
		return false, false, nil, content
	}
	if len(content) <= 4 {
		return true, false, content[len(content):], nil
	}
	rest := content[4:]
	for off := 0; off < len(rest); {
		end := bytes.IndexByte(rest[off:], '\n')
		var line []byte
		next := len(rest)
		if end < 0 {
			line = rest[off:]
		} else {
			line = rest[off : off+end]
			next = off + end + 1
		}
		if len(line) == 3 && line[0] == '-' && line[1] == '-' && line[2] == '-' {
			return true, true, rest[:off], rest[next:]
		}
		off = next
	}
	return true, false, rest, nil
}

// Has reports whether the block sets a top-level key. In the line view, a
// key is set by a column-0 "key:" line.
func (f *Frontmatter) Has(key string) bool { return f.fields.Find(key) >= 0 }

// Scalar returns a top-level scalar as the YAML decoder reads it: quotes
// removed, escapes decoded, comments dropped, null and "~" read as "". A key
// that holds a sequence or mapping reads as "". A repeated key: the last one
// wins. In the line view it is the first
// whitespace-separated token of the last "key:" line, with one outer pair of
// matching quotes removed.
func (f *Frontmatter) Scalar(key string) string {
	s, _ := f.fields.scalar(key)
	return s
}

// Leaves returns every non-null leaf scalar under a top-level key, in
// document order: the items of a flow or block sequence, the values (never
// the keys) of a mapping, recursively, or the one scalar. A repeated key:
// the last one wins. In the line view it is the raw text of the last
// "key:" line (one element; none when that text is empty).
func (f *Frontmatter) Leaves(key string) []string {
	i := f.fields.Find(key)
	if i < 0 {
		return nil
	}
	var out []string
	f.fields.EachLeaf(i, func(b []byte) { out = append(out, string(b)) })
	return out
}

// Lines returns the line view of the block: every column-0 "key:" line in
// block order.
func (f *Frontmatter) Lines() []KeyLine {
	var out []KeyLine
	eachKeyLine(f.Block, func(n int, key, val []byte) {
		out = append(out, KeyLine{Key: string(key), Value: string(val), Line: n + 2})
	})
	return out
}

// eachKeyLine calls fn for every key line of block with its 0-based line
// index in the block.
func eachKeyLine(block []byte, fn func(n int, key, val []byte)) {
	n := 0
	for line := range bytes.Lines(block) {
		line = bytes.TrimSuffix(line, []byte{'\n'})
		if c := bytes.IndexByte(line, ':'); c > 0 && line[0] != '#' && !hasSpace(line[:c]) {
			fn(n, line[:c], TrimLeftSpace(line[c+1:]))
		}
		n++
	}
}

// lineFields fills fs with the line view of block: one raw entry per key
// line.
func lineFields(block []byte, fs *Fields) {
	fs.reset()
	eachKeyLine(block, func(_ int, key, val []byte) {
		fs.entries = append(fs.entries, entry{key: key, kind: kindRaw, val: val})
	})
}

// yamlFormat is the frontmatter format handed to adrg/frontmatter: "---"
// fences, decoded with go.yaml.in/yaml/v3 into a yaml.Node.
var yamlFormat = adrg.NewFormat("---", "---", unmarshalYAML)

// ErrMultiDoc is the cause of a [YAMLError] for a block holding more
// than one YAML document (its Msg is ErrMultiDoc.Error()).
var ErrMultiDoc = errors.New("the block holds more than one YAML document")

// unmarshalYAML decodes exactly one YAML document into v.
func unmarshalYAML(data []byte, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		if err == io.EOF {
			return nil
		}
		return err
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err != io.EOF {
		if err != nil {
			return err
		}
		return ErrMultiDoc
	}
	return nil
}

var yamlLineRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): `) })

// decodeYAML decodes a block with the library's format into fs, or reports
// why it cannot be read as YAML (fs is then unspecified).
func decodeYAML(block []byte, fs *Fields) *YAMLError {
	var doc yaml.Node
	if err := yamlFormat.Unmarshal(withLF(block), &doc); err != nil {
		return yamlError(err.Error())
	}
	return fieldsOf(&doc, block, fs)
}

// fieldsOf fills fs with the top level of a decoded block, or reports why
// it cannot be read as a record's frontmatter.
func fieldsOf(doc *yaml.Node, block []byte, fs *Fields) *YAMLError {
	fs.reset()
	if doc.Kind == 0 {
		return nil // empty block: no keys
	}
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		return &YAMLError{Line: root.Line + 1, Msg: "the block is not a YAML mapping"}
	}
	budget := maxYAMLNodes
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := deref(root.Content[i]), root.Content[i+1]
		if k == nil || k.Kind != yaml.ScalarNode {
			continue
		}
		e := entry{key: []byte(k.Value)}
		v = deref(v)
		switch {
		case v == nil || isNull(v):
			e.kind = kindNull
		case v.Kind == yaml.ScalarNode:
			e.kind, e.val = kindPlain, []byte(v.Value)
			if v.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
				e.kind = kindQuoted
			}
		default:
			e.kind = kindColl
			e.leafLo = len(fs.leaves)
			if !collectLeaves(v, &fs.leaves, &budget) {
				return &YAMLError{Line: v.Line + 1, Msg: "too many YAML nodes (alias expansion)"}
			}
			e.leafHi = len(fs.leaves)
		}
		fs.entries = append(fs.entries, e)
	}
	return hiddenKeyLine(block, fs)
}

// hiddenKeyLine reports a column-0 "key:" line that the YAML reading did
// not take as a top-level key: a quote or bracket left open above it made
// it part of a value spanning lines. The line reading upstream used sees
// that key, so the block must be read line by line, or a record the bash
// version found would be lost. Only keys YAML would read as plain
// top-level keys are compared (not "'id':" or "<<:").
func hiddenKeyLine(block []byte, fs *Fields) *YAMLError {
	var bad *YAMLError
	have := make(map[string]int, len(fs.entries))
	for _, e := range fs.entries {
		have[string(e.key)]++
	}
	eachKeyLine(block, func(n int, key, _ []byte) {
		if bad != nil || keyLen(key) != len(key) {
			return
		}
		if have[string(key)]--; have[string(key)] < 0 {
			bad = &YAMLError{Line: n + 2, Msg: "key line \"" + string(key) +
				":\" is inside a value that spans lines (a quote or bracket left open above it)"}
		}
	})
	return bad
}

// yamlError turns a yaml.v3 error message into a YAMLError with a file
// line. yaml.v3 reports scanner errors with a 1-based block line, but
// parser errors with a 0-based one, and omits "line 0"; the block starts on
// file line 2.
func yamlError(msg string) *YAMLError {
	msg = strings.TrimPrefix(msg, "yaml: ")
	parser := false
	for _, p := range []string{"did not find expected", "found duplicate", "found incompatible", "found undefined tag"} {
		parser = parser || strings.Contains(msg, p)
	}
	ye := &YAMLError{Msg: msg}
	if m := yamlLineRE().FindStringSubmatch("yaml: " + msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		ye.Msg = msg[len(m[0])-len("yaml: "):]
		ye.Line = n + 1
		if parser {
			ye.Line = n + 2
		}
	} else if parser {
		ye.Line = 2
	}
	return ye
}

// maxYAMLNodes bounds the nodes visited when collecting leaves, so that a
// block of nested aliases cannot make a record expensive to read.
const maxYAMLNodes = 10000

func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

func collectLeaves(n *yaml.Node, out *[][]byte, budget *int) bool {
	n = deref(n)
	if n == nil {
		return true
	}
	if *budget--; *budget < 0 {
		return false
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if !isNull(n) {
			*out = append(*out, []byte(n.Value))
		}
	case yaml.SequenceNode, yaml.DocumentNode:
		for _, c := range n.Content {
			if !collectLeaves(c, out, budget) {
				return false
			}
		}
	case yaml.MappingNode:
		for i := 1; i < len(n.Content); i += 2 {
			if !collectLeaves(n.Content[i], out, budget) {
				return false
			}
		}
	}
	return true
}

// hasFenceLike reports whether a line of block trims to "---".
func hasFenceLike(block []byte) bool {
	for line := range bytes.Lines(block) {
		if string(bytes.TrimSpace(line)) == "---" {
			return true
		}
	}
	return false
}
