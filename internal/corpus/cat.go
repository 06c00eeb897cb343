package corpus

import "strings"

// A Dump is one record [Corpus.Cat] read: its corpus path and full content.
type Dump struct {
	Path    string
	Content []byte
}

// Member maps a reference to the corpus path it names, if any. One leading
// "./" is removed; then an absolute path starting with the root exactly as
// configured plus "/" loses that prefix. Nothing else is done (no "..",
// glob or symlink resolution): the result must equal, byte for byte, a path
// the scan listed. A "./"-prefixed reference that only matches unstripped
// (an extra store configured as "./kb") is accepted as written.
func (c *Corpus) Member(ref string) (string, bool) {
	norm := strings.TrimPrefix(ref, "./")
	if strings.HasPrefix(norm, "/") && strings.HasPrefix(norm, c.Root+"/") {
		norm = norm[len(c.Root)+1:]
	}
	if norm == "" {
		return "", false
	}
	if _, ok := c.index(norm); ok {
		return norm, true
	}
	if norm != ref {
		if _, ok := c.index(ref); ok {
			return ref, true
		}
	}
	return "", false
}

// Cat resolves references (see [Corpus.Member]) against the corpus and reads
// the records they name, deduplicated in first-occurrence order. It is
// atomic: if any reference is not a corpus member it returns a *CatError, and
// if any member cannot be read a *ScanError, and no dumps in either case.
func (c *Corpus) Cat(refs []string) ([]Dump, error) {
	var bad []string
	var paths []string
	seen := make(map[string]bool)
	for _, ref := range refs {
		p, ok := c.Member(ref)
		if !ok {
			bad = append(bad, ref)
			continue
		}
		if !seen[p] {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	if len(bad) > 0 {
		return nil, &CatError{Refs: bad}
	}
	dumps := make([]Dump, 0, len(paths))
	for _, p := range paths {
		b, err := c.ReadFile(p)
		if err != nil {
			return nil, &ScanError{Path: p, Err: err}
		}
		dumps = append(dumps, Dump{Path: p, Content: b})
	}
	return dumps, nil
}
