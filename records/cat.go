package records

import "strings"

// A Dump is one record --cat prints: its corpus path and full content.
type Dump struct {
	Path    string
	Content []byte
}

// CatRefs expands --cat arguments into references: an argument holding LF
// is split on LF with empty pieces dropped; any other argument (the empty
// string included) is one reference. When nothing is left, the result is
// one empty reference.
func CatRefs(args []string) []string {
	var refs []string
	for _, a := range args {
		if !strings.Contains(a, "\n") {
			refs = append(refs, a)
			continue
		}
		for _, p := range strings.Split(a, "\n") {
			if p != "" {
				refs = append(refs, p)
			}
		}
	}
	if len(refs) == 0 {
		refs = []string{""}
	}
	return refs
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

// IsIDLike reports whether a bad --cat reference looks like a record id:
// no "/", no ".md" suffix, but a ".".
func IsIDLike(ref string) bool {
	return !strings.Contains(ref, "/") && !strings.HasSuffix(ref, ".md") && strings.Contains(ref, ".")
}

// Cat resolves references (see [CatRefs]) against the corpus and reads the
// records they name, deduplicated in first-occurrence order. It is atomic:
// if any reference is not a corpus member it returns a *CatError, and if
// any member cannot be read a *ScanError, and no dumps in either case.
func (c *Corpus) Cat(refs []string) ([]Dump, error) {
	var bad []string
	idLike := false
	var paths []string
	seen := make(map[string]bool)
	for _, ref := range refs {
		p, ok := c.Member(ref)
		if !ok {
			show := ref
			if show == "" {
				show = "(empty)"
			}
			bad = append(bad, show)
			idLike = idLike || IsIDLike(ref)
			continue
		}
		if !seen[p] {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	if len(bad) > 0 {
		return nil, &CatError{Refs: bad, IDLike: idLike}
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

// WriteDump appends the dump block of §14.3 to dst: nothing for empty
// content, else LF, "==> path <==", LF, the content, and an LF if the
// content did not end with one.
func WriteDump(dst []byte, d Dump) []byte {
	if len(d.Content) == 0 {
		return dst
	}
	dst = append(dst, "\n==> "...)
	dst = append(dst, d.Path...)
	dst = append(dst, " <==\n"...)
	dst = append(dst, d.Content...)
	if d.Content[len(d.Content)-1] != '\n' {
		dst = append(dst, '\n')
	}
	return dst
}
