package frontmatter

// Fields is the decoded top level of a block: one entry per key, in
// block order, in one of three shapes (YAML scalar, YAML collection, raw
// line). Slices point into the content or into decoder-owned memory. A
// reader that parses many records reuses one Fields (see [Read]) to avoid
// allocation; the zero value is ready to use.
type Fields struct {
	entries []entry
	leaves  [][]byte
}

type entry struct {
	key            []byte
	kind           uint8
	val            []byte
	leafLo, leafHi int
}

const (
	kindNull   uint8 = iota // YAML null (~, null, empty)
	kindPlain               // YAML plain scalar
	kindQuoted              // YAML quoted (or block) scalar
	kindColl                // YAML sequence or mapping: leaves[leafLo:leafHi]
	kindRaw                 // line view: val is the raw text after "key:"
)

func (fs *Fields) reset() {
	fs.entries = fs.entries[:0]
	fs.leaves = fs.leaves[:0]
}

// Find returns the index of the last entry for key, or -1.
func (fs *Fields) Find(key string) int {
	for i := len(fs.entries) - 1; i >= 0; i-- {
		if string(fs.entries[i].key) == key {
			return i
		}
	}
	return -1
}

// scalar returns the value of key and whether it was quoted in YAML.
func (fs *Fields) scalar(key string) (string, bool) {
	b, q := fs.ScalarBytes(key)
	return string(b), q
}

// ScalarBytes returns the scalar of key as [Frontmatter.Scalar] reads it,
// and whether YAML read it quoted (a quoted value is taken whole). It is
// nil for a missing key, a null or a collection. The bytes point into the
// content or decoder-owned memory.
func (fs *Fields) ScalarBytes(key string) ([]byte, bool) {
	i := fs.Find(key)
	if i < 0 {
		return nil, false
	}
	e := &fs.entries[i]
	switch e.kind {
	case kindPlain:
		return e.val, false
	case kindQuoted:
		return e.val, true
	case kindRaw:
		return FirstTokenUnquoted(e.val), false
	}
	return nil, false
}

// IsLine reports whether entry i comes from the line view (the block was
// not read as YAML): its value is the raw text after "key:".
func (fs *Fields) IsLine(i int) bool { return fs.entries[i].kind == kindRaw }

// EachLeaf calls fn with each leaf of entry i (an index [Fields.Find]
// returned): a scalar or line-view value once, when not empty; a
// collection's leaves in document order.
func (fs *Fields) EachLeaf(i int, fn func([]byte)) {
	e := &fs.entries[i]
	switch e.kind {
	case kindPlain, kindQuoted, kindRaw:
		if len(e.val) > 0 {
			fn(e.val)
		}
	case kindColl:
		for _, l := range fs.leaves[e.leafLo:e.leafHi] {
			fn(l)
		}
	}
}

// FirstTokenUnquoted reads a line-view value: a quoted one whole, a plain
// one up to its first blank, quotes removed.
func FirstTokenUnquoted(v []byte) []byte {
	v = TrimLeftSpace(v)
	for i, c := range v {
		if IsSpace(c) {
			v = v[:i]
			break
		}
	}
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		v = v[1 : len(v)-1]
	}
	return v
}

// IsSpace is the C-locale [[:space:]] class.
func IsSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func hasSpace(b []byte) bool {
	for _, c := range b {
		if IsSpace(c) {
			return true
		}
	}
	return false
}

// TrimLeftSpace removes leading [IsSpace] bytes.
func TrimLeftSpace(b []byte) []byte {
	for len(b) > 0 && IsSpace(b[0]) {
		b = b[1:]
	}
	return b
}
