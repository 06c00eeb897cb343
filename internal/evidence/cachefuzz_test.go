package evidence

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"
)

// A cache file's parts that check (their CRC matches) but say anything:
// decoding them fails or succeeds, never panics, and allocates no more
// than the bytes could hold. Seeded with a real index and head.
func FuzzCacheDecode(f *testing.F) {
	projects := filepath.Join(f.TempDir(), "projects")
	if err := os.CopyFS(projects, os.DirFS("testdata/nested")); err != nil {
		f.Fatal(err)
	}
	cacheDir := filepath.Join(f.TempDir(), "cache")
	if _, err := Sweep(Options{Projects: projects, CacheDir: cacheDir}); err != nil {
		f.Fatal(err)
	}
	paths, _ := filepath.Glob(filepath.Join(cacheDir, "evidence-*.cache"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		fh, size, err := openTrusted(p)
		if err != nil {
			f.Fatal(err)
		}
		head, _, err := readHead(fh, size)
		fh.Close()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(bytes.Clone(head))
		var h memoHead
		if err := h.decode(head, sharedDec(head).s()); err != nil {
			f.Fatal(err)
		}
		index := b[superLen+h.regionLen : superLen+h.regionLen+h.indexLen]
		f.Add(bytes.Clone(index[:len(index)-4]))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		b = bytes.Clone(b) // the decoded strings share it
		var h memoHead
		_ = h.decode(b, sharedDec(b).s())
		body := binary.LittleEndian.AppendUint32(bytes.Clone(b), crc32.Checksum(b, castagnoli()))
		old, table, err := decodeIndex(body, "", 0, int64(len(b)))
		if err != nil {
			return
		}
		r := bytes.NewReader(b)
		for _, e := range old {
			if e.load() != nil {
				e.loadTurns(r)
			}
		}
		ks := &keys{old: table, renum: make([]int32, len(old))}
		ks.files(0, func(uint32) {})
	})
}
