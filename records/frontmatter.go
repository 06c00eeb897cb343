package records

import "github.com/procedures-go/procedures/internal/frontmatter"

// Frontmatter is a record's frontmatter block, split from the body and
// decoded as YAML by github.com/adrg/frontmatter with go.yaml.in/yaml/v3 (a
// record of the common shape is read by a faster path that gives the same
// result).
// Fences: line 1 is exactly "---" and the block ends at the next line
// exactly "---" (CRLF is not accepted: normalise first if you want it). When
// the block is not a valid YAML mapping, YAMLErr says why and the accessors
// read it line by line as the upstream shell tools did ("key: value" lines
// at column 0), so that nothing they could find is lost. Build one with
// [ParseFrontmatter]; the zero Frontmatter is an absent one.
type Frontmatter struct {
	Present    bool   // line 1 is exactly "---"
	Terminated bool   // a later line exactly "---" closed the block
	Block      []byte // the bytes between the fences, each line with its LF
	// Body is what follows the closing fence: the whole content when there
	// is no frontmatter, nil when the block is unterminated.
	Body    []byte
	YAMLErr *YAMLError // why the block is read line by line; nil for YAML

	f *frontmatter.Frontmatter
}

// YAMLError tells why a frontmatter block was read line by line.
type YAMLError struct {
	Line int // 1-based line in the file; 0 when the decoder did not say
	Msg  string
}

func (e *YAMLError) Error() string { return (*frontmatter.YAMLError)(e).Error() }

// ParseFrontmatter splits content into its frontmatter block and body and
// decodes the block. Slices of the result point into content.
func ParseFrontmatter(content []byte) *Frontmatter {
	f := frontmatter.Parse(content)
	return &Frontmatter{Present: f.Present, Terminated: f.Terminated, Block: f.Block,
		Body: f.Body, YAMLErr: (*YAMLError)(f.YAMLErr), f: f}
}

// Has reports whether the block sets a top-level key.
func (f *Frontmatter) Has(key string) bool { return f != nil && f.f != nil && f.f.Has(key) }

// Scalar returns a top-level scalar as YAML reads it: quotes removed,
// escapes decoded, comments dropped, null and "~" read as "". A key that
// holds a sequence or mapping reads as "". A repeated key: the last one
// wins. Read line by line, it is the first whitespace-separated token of the
// last "key:" line, one outer pair of matching quotes removed.
func (f *Frontmatter) Scalar(key string) string {
	if f == nil || f.f == nil {
		return ""
	}
	return f.f.Scalar(key)
}

// Leaves returns every non-null leaf scalar under a top-level key, in
// document order: the items of a sequence, the values (never the keys) of
// a mapping, recursively, or the one scalar. A repeated key: the last one
// wins. Read line by line, it is the raw text of the last "key:" line (none
// when that text is empty).
func (f *Frontmatter) Leaves(key string) []string {
	if f == nil || f.f == nil {
		return nil
	}
	return f.f.Leaves(key)
}
