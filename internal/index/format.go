package index

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"
	"sort"
	"unsafe"

	"github.com/procedures-go/procedures/internal/cachefile"
	"github.com/procedures-go/procedures/internal/corpus"
)

// The index file is the header line, then a body of unsigned varints and
// length-prefixed strings, then the body's CRC-32 (IEEE, 4 bytes big
// endian):
//
//	root, #stores, stores…, observed, #entries, entries…, #dirs, dirs…
//	entry: path, length of what follows, size, mtime ns, ctime ns, inode,
//	       device, mode, metadata
//	dir:   printed path (ending in "/"), its stat as an entry's,
//	       #subdirectories, names…, #corpus files, names…
//
// Entries are in strictly increasing path order, directories likewise. An
// entry's length lets a load skip it; its stat and metadata are decoded
// only when a query asks for the entry (the checksum covers them).
// A stat is fixed-width (see statLen); the metadata is a FileMeta as
// [corpus.AppendMeta] encodes it (flags, id, kind, project, status, gloss,
// keywords, links; no keyword tokens, which [corpus.DecodeMeta] derives
// from the keywords for a keyword query: version 1 stored them). Version 2
// had no directories; version 3 had a CRC-32C; versions up to 4 stored a
// stat as varints; versions up to 5 had no observed moment (the unix
// nanosecond the saving run began observing; a racy stat is stored
// smudged, see cachefile.Judge). The search index follows the CRC with its
// inverted file (see [search.OpenInverted]); the query index has nothing
// there.

// checksum is the CRC-32 of b (see [cachefile.Checksum]).
func checksum(b []byte) uint32 { return cachefile.Checksum(b) }

var errCorrupt = cachefile.ErrCorrupt

// encode is the index of entries and dirs (for tests).
func encode(root string, stores []string, observed int64, entries map[string]entry, dirs map[string]listing) []byte {
	paths := make([]string, 0, len(entries))
	for p := range entries {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b bytes.Buffer
	encodeTo(&b, root, stores, observed, len(paths), func(b []byte, i int) []byte {
		e := entries[paths[i]]
		return appendEntry(b, paths[i], e.St, e.meta)
	}, dirs)
	return b.Bytes()
}

// flushAt is the size from which encodeTo hands what it encoded to its
// writer (a variable for tests).
var flushAt = 64 << 10

// encodeTo writes the index of n entries, in path order (entry appends
// the i-th one: its path, stat and metadata), and of dirs to w. It encodes
// into one buffer of about flushAt bytes, written out and reused each time
// it fills, the checksum taken as it goes: writing an index costs no
// memory proportional to it.
func encodeTo(w io.Writer, root string, stores []string, observed int64, n int, entry func(b []byte, i int) []byte, dirs map[string]listing) error {
	header := magic + " " + itoa(Version) + "\n"
	b := append(make([]byte, 0, flushAt+flushAt/4), header...)
	var sum uint32
	var err error
	from := len(header) // what the checksum covers starts behind the header
	flush := func() {
		sum = crc32.Update(sum, crc32.IEEETable, b[from:])
		if err == nil {
			_, err = w.Write(b)
		}
		b, from = b[:0], 0
	}
	b = appendStr(b, root)
	b = appendStrs(b, stores)
	b = binary.AppendUvarint(b, uint64(observed))
	b = binary.AppendUvarint(b, uint64(n))
	for i := range n {
		if b = entry(b, i); len(b) >= flushAt {
			flush()
		}
	}
	names := make([]string, 0, len(dirs))
	for d := range dirs {
		names = append(names, d)
	}
	sort.Strings(names)
	b = binary.AppendUvarint(b, uint64(len(names)))
	for _, d := range names {
		l := dirs[d]
		b = appendStat(appendStr(b, d), l.St)
		b = appendStrs(appendStrs(b, l.subdirs), l.files)
		if len(b) >= flushAt {
			flush()
		}
	}
	sum = crc32.Update(sum, crc32.IEEETable, b[from:])
	b = binary.BigEndian.AppendUint32(b, sum)
	if err == nil {
		_, err = w.Write(b)
	}
	return err
}

// appendEntry appends one entry: its path, then its stat and metadata
// behind their length.
func appendEntry[S ~string | ~[]byte](b []byte, path string, st corpus.FileStat, meta S) []byte {
	var buf [statLen]byte
	stat := appendStat(buf[:0], st)
	b = binary.AppendUvarint(appendStr(b, path), uint64(len(stat)+len(meta)))
	return append(append(b, stat...), meta...)
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

// statLen is the length of a stat as the index stores it: size, mtime ns,
// ctime ns, inode and device as eight bytes each and the mode as four,
// little endian, so that a query compares a file's stat with the stored
// one without a varint loop.
const statLen = 5*8 + 4

func appendStat(b []byte, st corpus.FileStat) []byte {
	le := binary.LittleEndian
	b = le.AppendUint64(b, uint64(st.Size))
	b = le.AppendUint64(b, uint64(st.MtimeNs))
	b = le.AppendUint64(b, uint64(st.CtimeNs))
	b = le.AppendUint64(b, st.Ino)
	b = le.AppendUint64(b, st.Dev)
	return le.AppendUint32(b, st.Mode)
}

// statOf is the stat stored in s, which holds statLen bytes.
func statOf(s string) corpus.FileStat {
	u64 := func(i int) uint64 {
		return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
	}
	_ = s[statLen-1]
	return corpus.FileStat{Size: int64(u64(0)), MtimeNs: int64(u64(8)), CtimeNs: int64(u64(16)),
		Ino: u64(24), Dev: u64(32),
		Mode: uint32(s[40]) | uint32(s[41])<<8 | uint32(s[42])<<16 | uint32(s[43])<<24}
}

func readStat(d *corpus.Decoder) corpus.FileStat {
	if s := d.Take(statLen); d.OK() {
		return statOf(s)
	}
	return corpus.FileStat{}
}

// lazy is a loaded entry: its path, and its stat and metadata still
// encoded (decoded when the entry is used: see [lazy.decode]).
type lazy struct {
	path string
	rec  string
}

// decode is the entry's stat and encoded metadata; ok is false when they
// are not well formed (the entry is then not used).
func (e *lazy) decode() (st corpus.FileStat, meta string, ok bool) {
	if len(e.rec) < statLen {
		return corpus.FileStat{}, "", false
	}
	return statOf(e.rec), e.rec[statLen:], true
}

// listing is what the store walk listed of one directory (see
// [corpus.DirCache]).
type listing struct {
	St             corpus.FileStat
	subdirs, files []string
}

// decoded is a decoded index body.
type decoded struct {
	root     string
	stores   []string
	observed int64
	entries  []lazy // in strictly increasing path order
	dirs     map[string]listing
	tail     string // what follows the checksum: the search index's inverted file
}

// decode reads an index body (after the header line) and its CRC, and
// keeps what follows the CRC as the tail (the search index's inverted
// file, which checks its own parts). Each entry's stat and metadata are
// kept encoded ([lazy.decode]); the strings share body's bytes, which the
// caller must never write again.
func decode(body []byte) (decoded, error) {
	var x decoded
	// The strings share body's bytes, which the caller hands over: body
	// is never written again (its one copy is the index's). Nothing decoded
	// is used before the checksum over it matches.
	all := unsafe.String(unsafe.SliceData(body), len(body))
	d := corpus.NewDecoder(all)
	x.root = d.Str()
	x.stores = d.Strs()
	x.observed = int64(d.Uvarint())
	n := d.Uvarint()
	if !d.OK() || n > uint64(len(d.Rest())) {
		return decoded{}, errCorrupt
	}
	x.entries = make([]lazy, n)
	for i := range x.entries {
		e := &x.entries[i]
		e.path = d.Str()
		e.rec = d.Take(int(min(d.Uvarint(), uint64(len(d.Rest()))+1)))
		if !d.OK() || i > 0 && e.path <= x.entries[i-1].path {
			return decoded{}, errCorrupt
		}
	}
	nd := d.Uvarint()
	if !d.OK() || nd > uint64(len(d.Rest())) {
		return decoded{}, errCorrupt
	}
	x.dirs = make(map[string]listing, nd)
	prev := ""
	for i := range nd {
		name := d.Str()
		l := listing{St: readStat(d)}
		l.subdirs, l.files = d.Strs(), d.Strs()
		if !d.OK() || i > 0 && name <= prev {
			return decoded{}, errCorrupt
		}
		x.dirs[name], prev = l, name
	}
	rest := d.Rest()
	end := len(all) - len(rest)
	if len(rest) < 4 || checksum(body[:end]) != binary.BigEndian.Uint32(body[end:end+4]) {
		return decoded{}, errCorrupt
	}
	x.tail = rest[4:]
	return x, nil
}
