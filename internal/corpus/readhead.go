package corpus

import "io"

// fillHead appends to buf what read yields until read reports io.EOF,
// done(buf) says enough, or buf holds [MaxFrontmatter] bytes (capped is then
// true). It is the reading loop of readHead on every platform.
func fillHead(buf []byte, read func([]byte) (int, error), done func([]byte) bool) (_ []byte, capped bool, _ error) {
	for {
		if len(buf) >= MaxFrontmatter {
			return buf, true, nil
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := read(buf[len(buf):min(cap(buf), MaxFrontmatter)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, false, nil
		}
		if err != nil {
			return buf, false, err
		}
		if n > 0 && done(buf) {
			return buf, false, nil
		}
	}
}
