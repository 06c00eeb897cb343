package index

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"sort"
	"sync"

	"github.com/procedures-go/procedures/internal/corpus"
)

// The index file is the header line, then a body of unsigned varints and
// length-prefixed strings, then the body's CRC-32 (Castagnoli, 4 bytes big
// endian):
//
//	root, #stores, stores…, #entries, entries…
//	entry: path, size, mtime ns, ctime ns, inode, device, mode, metadata
//
// Times and size are zig-zag varints; the metadata is a FileMeta as
// [corpus.AppendMeta] encodes it (flags, id, kind, project, status, gloss,
// keywords, links; no keyword tokens, which [corpus.DecodeMeta] derives
// from the keywords for a keyword query: version 1 stored them).

// crcTable is made on first use: making it costs about 0.2 ms, which every
// start of the multi-call binary paid as package init.
var crcTable = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

var errCorrupt = errors.New("index: corrupt")

func encode(root string, stores []string, entries map[string]entry) []byte {
	paths := make([]string, 0, len(entries))
	for p := range entries {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return encodeWith(root, stores, paths, func(b []byte, p string) []byte {
		e := entries[p]
		return append(appendStat(b, e.St), e.meta...)
	})
}

// encodeWith encodes the index of the sorted, distinct paths; entry
// appends each one's stat and metadata.
func encodeWith(root string, stores []string, paths []string, entry func(b []byte, p string) []byte) []byte {
	return encodeInto(nil, root, stores, len(paths), func(b []byte, i int) []byte {
		return entry(appendStr(b, paths[i]), paths[i])
	})
}

// encodeInto appends to b the index of n entries, in path order; entry
// appends the i-th one: its path, stat and metadata.
func encodeInto(b []byte, root string, stores []string, n int, entry func(b []byte, i int) []byte) []byte {
	b = append(b, magic+" "+itoa(Version)+"\n"...)
	start := len(b)
	b = appendStr(b, root)
	b = appendStrs(b, stores)
	b = binary.AppendUvarint(b, uint64(n))
	for i := range n {
		b = entry(b, i)
	}
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b[start:], crcTable()))
}

func appendStr(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendStrs(b []byte, ss []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(ss)))
	for _, s := range ss {
		b = appendStr(b, s)
	}
	return b
}

func appendStat(b []byte, st corpus.FileStat) []byte {
	b = binary.AppendVarint(b, st.Size)
	b = binary.AppendVarint(b, st.MtimeNs)
	b = binary.AppendVarint(b, st.CtimeNs)
	b = binary.AppendUvarint(b, st.Ino)
	b = binary.AppendUvarint(b, st.Dev)
	return binary.AppendUvarint(b, uint64(st.Mode))
}

// lazy is a loaded entry: its stat, and its metadata still encoded
// (decoded by [decodeMeta] when the entry is used).
type lazy struct {
	St   corpus.FileStat
	meta string
}

// decode reads an index body (after the header line) with its CRC. Each
// entry's metadata is checked and kept encoded.
func decode(body []byte) (root string, stores []string, entries map[string]lazy, err error) {
	if len(body) < 4 {
		return "", nil, nil, errCorrupt
	}
	data, sum := body[:len(body)-4], binary.BigEndian.Uint32(body[len(body)-4:])
	if crc32.Checksum(data, crcTable()) != sum {
		return "", nil, nil, errCorrupt
	}
	d := corpus.NewDecoder(string(data))
	root = d.Str()
	stores = d.Strs()
	n := d.Uvarint()
	if !d.OK() || n > uint64(len(d.Rest())) {
		return "", nil, nil, errCorrupt
	}
	entries = make(map[string]lazy, n)
	for range n {
		p := d.Str()
		var e lazy
		e.St.Size = d.Varint()
		e.St.MtimeNs = d.Varint()
		e.St.CtimeNs = d.Varint()
		e.St.Ino = d.Uvarint()
		e.St.Dev = d.Uvarint()
		e.St.Mode = uint32(d.Uvarint())
		if !d.OK() {
			return "", nil, nil, errCorrupt
		}
		m, ok := corpus.MetaLen(d.Rest())
		if !ok {
			return "", nil, nil, errCorrupt
		}
		e.meta = d.Take(m)
		entries[p] = e
	}
	if len(d.Rest()) != 0 {
		return "", nil, nil, errCorrupt
	}
	return root, stores, entries, nil
}
