package writerindex

import (
	"encoding/binary"
	"slices"
	"strconv"
	"strings"

	"github.com/procedures-go/procedures/internal/cachefile"
	"github.com/procedures-go/procedures/internal/corpus"
)

// The writers' index file and the raw blocks of records it is read in.

// rawEntry is the fixed part of one record in a raw block: u16 name
// length, u32 id length, five u64 (size, mtime, ctime, ino, dev), u32 mode.
const rawEntry = 2 + 4 + 5*8 + 4

// eachRaw calls fn for each record of a raw block (checked at load) with
// its index, name, id and stat; fn returns false to stop.
func eachRaw(raw []byte, fn func(i int, name, id []byte, st corpus.FileStat) bool) {
	for i, off := 0, 0; off < len(raw); i++ {
		end, nm, id := rawAt(raw, off)
		if !fn(i, raw[nm:id], raw[id:end], rawStat(raw, off)) {
			return
		}
		off = end
	}
}

// rawAt describes the record at off of a raw block: its end and where its
// name and id lie.
func rawAt(raw []byte, off int) (end, name, id int) {
	le := binary.LittleEndian
	nl, il := int(le.Uint16(raw[off:])), int(le.Uint32(raw[off+2:]))
	name = off + rawEntry
	id = name + nl
	return id + il, name, id
}

// rawStat is the stat of the record at off of a raw block.
func rawStat(raw []byte, off int) corpus.FileStat {
	le := binary.LittleEndian
	r := raw[off:]
	return corpus.FileStat{Size: int64(le.Uint64(r[6:])), MtimeNs: int64(le.Uint64(r[14:])),
		CtimeNs: int64(le.Uint64(r[22:])), Ino: le.Uint64(r[30:]), Dev: le.Uint64(r[38:]),
		Mode: le.Uint32(r[46:])}
}

// mergeRaw rebuilds d's raw block: the records marked in keep (what was
// read again put in), and added (sorted by name) at their places.
func mergeRaw(d *wdir, keep []bool, added []wfile) {
	b := make([]byte, 0, len(d.raw)+len(added)*(rawEntry+64))
	n := 0
	for i, off := 0, 0; off < len(d.raw); i++ {
		end, nm, id := rawAt(d.raw, off)
		name := d.raw[nm:id]
		for len(added) > 0 && added[0].name < string(name) {
			b = appendWFile(b, added[0])
			added = added[1:]
			n++
		}
		if keep[i] {
			if f, ok := d.patch[i]; ok {
				b = appendWFile(b, f)
			} else {
				b = append(b, d.raw[off:end]...)
			}
			n++
		}
		off = end
	}
	for _, f := range added {
		b = appendWFile(b, f)
		n++
	}
	d.raw, d.nraw, d.patch = b, n, nil
}

// checkRaw reports whether raw holds exactly n well-formed records.
func checkRaw(raw []byte, n int) bool {
	le := binary.LittleEndian
	for range n {
		if len(raw) < rawEntry {
			return false
		}
		l := rawEntry + int(le.Uint16(raw)) + int(le.Uint32(raw[2:]))
		if l > len(raw) {
			return false
		}
		raw = raw[l:]
	}
	return len(raw) == 0
}

// decoded returns d's records, decoding its raw block (with what was read
// again applied) the first time.
func (d *wdir) decoded() []wfile {
	if d.raw == nil {
		return d.files
	}
	d.files = make([]wfile, 0, d.nraw)
	eachRaw(d.raw, func(i int, name, id []byte, st corpus.FileStat) bool {
		if f, ok := d.patch[i]; ok {
			d.files = append(d.files, f)
		} else {
			d.files = append(d.files, wfile{name: string(name), id: string(id), st: st})
		}
		return true
	})
	d.raw, d.nraw, d.patch = nil, 0, nil
	return d.files
}

// encodeWriters is the writers' index file: the header line, a body of
// fixed-width little-endian fields and length-prefixed strings (so that it
// decodes without a varint loop), its CRC-32 (IEEE, big endian; version 1 had
// a CRC-32C):
//
//	u32 len, root; i64 observed (the unix nanosecond the saving run began
//	observing: a racy stat is stored smudged, see cachefile.Judge); u32 #dirs;
//	dirs… (sorted by path)
//	dir:  u16 len, path; u8 flags (1: absent; above it, the own writes
//	      its listing accounts for); u64 dev, ino; i64 mtime ns, ctime ns;
//	      u32 #subs, (u16 len, name, u64 ino)…;
//	      u32 #files, u32 length of what follows, (u16 name len, u32 id
//	      len, i64 size, mtime ns, ctime ns, u64 ino, dev, u32 mode, name,
//	      id)…
func encodeWriters(root string, observed int64, dirs map[string]*wdir) []byte {
	paths := make([]string, 0, len(dirs))
	size := 64 + len(root)
	for p, d := range dirs {
		paths = append(paths, p)
		size += 40 + len(p) + 10*len(d.subs) + rawEntry*len(d.files) + len(d.raw)
		for _, f := range d.patch {
			size += rawEntry + len(f.name) + len(f.id)
		}
		for _, f := range d.files {
			size += len(f.name) + len(f.id)
		}
		for _, sd := range d.subs {
			size += len(sd.name)
		}
	}
	slices.Sort(paths)
	b := make([]byte, 0, size)
	b = append(b, writersMagic+" "+strconv.Itoa(writersVersion)+"\n"...)
	start := len(b)
	le := binary.LittleEndian
	b = le.AppendUint32(b, uint32(len(root)))
	b = append(b, root...)
	b = le.AppendUint64(b, uint64(observed))
	b = le.AppendUint32(b, uint32(len(paths)))
	for _, p := range paths {
		d := dirs[p]
		b = le.AppendUint16(b, uint16(len(p)))
		b = append(b, p...)
		flags := d.owned << 1
		if d.absent {
			flags |= 1
		}
		b = append(b, flags)
		b = le.AppendUint64(b, d.st.Dev)
		b = le.AppendUint64(b, d.st.Ino)
		b = le.AppendUint64(b, uint64(d.st.MtimeNs))
		b = le.AppendUint64(b, uint64(d.st.CtimeNs))
		b = le.AppendUint32(b, uint32(len(d.subs)))
		for _, sd := range d.subs {
			b = le.AppendUint16(b, uint16(len(sd.name)))
			b = append(b, sd.name...)
			b = le.AppendUint64(b, sd.ino)
		}
		if d.raw != nil && len(d.patch) == 0 {
			b = le.AppendUint32(b, uint32(d.nraw))
			b = le.AppendUint32(b, uint32(len(d.raw)))
			b = append(b, d.raw...)
			continue
		}
		b = le.AppendUint32(b, uint32(d.count()))
		lenAt := len(b)
		b = le.AppendUint32(b, 0)
		if d.raw != nil { // the raw block, what was read again put in
			off := 0
			eachRaw(d.raw, func(i int, name, id []byte, _ corpus.FileStat) bool {
				end := off + rawEntry + len(name) + len(id)
				if f, ok := d.patch[i]; ok {
					b = appendWFile(b, f)
				} else {
					b = append(b, d.raw[off:end]...)
				}
				off = end
				return true
			})
			le.PutUint32(b[lenAt:], uint32(len(b)-lenAt-4))
			continue
		}
		for _, f := range d.files {
			b = appendWFile(b, f)
		}
		le.PutUint32(b[lenAt:], uint32(len(b)-lenAt-4))
	}
	return binary.BigEndian.AppendUint32(b, cachefile.Checksum(b[start:]))
}

// count is the number of d's records.
func (d *wdir) count() int {
	if d.raw != nil {
		return d.nraw
	}
	return len(d.files)
}

// appendWFile appends one record as a raw block holds it.
func appendWFile(b []byte, f wfile) []byte {
	le := binary.LittleEndian
	b = le.AppendUint16(b, uint16(len(f.name)))
	b = le.AppendUint32(b, uint32(len(f.id)))
	b = le.AppendUint64(b, uint64(f.st.Size))
	b = le.AppendUint64(b, uint64(f.st.MtimeNs))
	b = le.AppendUint64(b, uint64(f.st.CtimeNs))
	b = le.AppendUint64(b, f.st.Ino)
	b = le.AppendUint64(b, f.st.Dev)
	b = le.AppendUint32(b, f.st.Mode)
	b = append(b, f.name...)
	return append(b, f.id...)
}

// fixed reads the fixed-width body. Any read past the end sets bad.
type fixed struct {
	b   []byte
	bad bool
}

func (d *fixed) take(n int) []byte {
	if d.bad || n > len(d.b) {
		d.bad = true
		return nil
	}
	v := d.b[:n:n]
	d.b = d.b[n:]
	return v
}

func (d *fixed) u64() uint64 {
	if v := d.take(8); v != nil {
		return binary.LittleEndian.Uint64(v)
	}
	return 0
}

func (d *fixed) u32() int {
	if v := d.take(4); v != nil {
		return int(binary.LittleEndian.Uint32(v))
	}
	return 0
}

func (d *fixed) u16() int {
	if v := d.take(2); v != nil {
		return int(binary.LittleEndian.Uint16(v))
	}
	return 0
}

// decodeWriters decodes an index file of root. The records' blocks stay
// raw (checked, not decoded) and point into b, which must not change.
func decodeWriters(b []byte, root string) (map[string]*wdir, error) {
	header := writersMagic + " " + strconv.Itoa(writersVersion) + "\n"
	if len(b) < len(header)+4 || string(b[:len(header)]) != header {
		return nil, cachefile.ErrCorrupt
	}
	body := b[len(header):]
	data, sum := body[:len(body)-4], binary.BigEndian.Uint32(body[len(body)-4:])
	if cachefile.Checksum(data) != sum {
		return nil, cachefile.ErrCorrupt
	}
	d := &fixed{b: data}
	if string(d.take(d.u32())) != root || d.bad {
		return nil, cachefile.ErrCorrupt
	}
	d.u64() // the moment the saving run observed from (for people and tests)
	n := d.u32()
	if n > len(d.b) {
		return nil, cachefile.ErrCorrupt
	}
	dirs := make(map[string]*wdir, n)
	for range n {
		wd := &wdir{path: string(d.take(d.u16()))}
		if f := d.take(1); f != nil {
			wd.absent, wd.owned = f[0]&1 != 0, f[0]>>1
		}
		wd.st.Dev, wd.st.Ino = d.u64(), d.u64()
		wd.st.MtimeNs, wd.st.CtimeNs = int64(d.u64()), int64(d.u64())
		ns := d.u32()
		if d.bad || ns > len(d.b) {
			return nil, cachefile.ErrCorrupt
		}
		if ns > 0 {
			wd.subs = make([]wsub, ns)
			for i := range wd.subs {
				wd.subs[i].name = string(d.take(d.u16()))
				wd.subs[i].ino = d.u64()
			}
		}
		wd.nraw = d.u32()
		wd.raw = d.take(d.u32())
		if d.bad || !checkRaw(wd.raw, wd.nraw) || !strings.HasSuffix(wd.path, "/") {
			return nil, cachefile.ErrCorrupt
		}
		if wd.raw == nil {
			wd.raw = []byte{}
		}
		dirs[wd.path] = wd
	}
	if d.bad || len(d.b) != 0 {
		return nil, cachefile.ErrCorrupt
	}
	return dirs, nil
}
