package corpus

import (
	"bytes"
	"iter"
)

// Records reads the corpus files one after the other, in corpus order, as a
// query reads them (the head only, never more than MaxFrontmatter bytes,
// CRLF read as LF), and yields each one's fields (Score 0). A file that
// cannot be read yields a Record holding only its Path and a *ScanError;
// the iteration goes on unless the caller stops it.
func (c *Corpus) Records() iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		var v recView
		var crlfBuf []byte
		buf := make([]byte, 0, 16<<10)
		for _, e := range c.entries {
			var err error
			buf, _, err = readHead(joinRoot(c.Root, e.path), buf[:0], haveHead)
			if err != nil {
				if !yield(Record{Path: e.path}, &ScanError{Path: e.path, Err: err}) {
					return
				}
				continue
			}
			content := buf
			if bytes.Contains(content, crlf) {
				crlfBuf = normalizeCRLF(crlfBuf[:0], content)
				content = crlfBuf
			}
			v.parse(content)
			if !yield(*recordOf(e.path, &v), nil) {
				return
			}
		}
	}
}
