package corpus

import (
	"bytes"
	"testing"
)

// FuzzNormalizeCRLF: CRLF normalisation (what queries and the lint read) is
// exactly "every CRLF becomes LF", and fenceDecided never panics.
func FuzzNormalizeCRLF(f *testing.F) {
	for _, s := range []string{"", "\r\n", "---\r\nid: x\r\n---\r\n# T\r\n", "a\r\r\nb\n\r", "---\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want := bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
		if got := normalizeCRLF(nil, b); !bytes.Equal(got, want) {
			t.Fatalf("normalizeCRLF(%q) = %q, want %q", b, got, want)
		}
		fenceDecided(b)
		haveHead(b)
	})
}
