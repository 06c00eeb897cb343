package index

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"sort"
	"sync"
)

// The index file is the header line, then a body of unsigned varints and
// length-prefixed strings, then the body's CRC-32 (Castagnoli, 4 bytes big
// endian):
//
//	root, #stores, stores…, #entries, entries…
//	entry: path, size, mtime ns, ctime ns, inode, device, mode, flags,
//	       id, kind, project, status, gloss, #keywords, keywords…,
//	       #links, links…, #tokens, tokens…
//
// Times and size are zig-zag varints; flags bit 0 is Empty, bit 1 Skip.

// crcTable is made on first use: making it costs about 0.2 ms, which every
// start of the multi-call binary paid as package init.
var crcTable = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

var errCorrupt = errors.New("index: corrupt")

func encode(root string, stores []string, entries map[string]entry) []byte {
	b := []byte(magic + " " + itoa(Version) + "\n")
	start := len(b)
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	strs := func(ss []string) {
		b = binary.AppendUvarint(b, uint64(len(ss)))
		for _, s := range ss {
			str(s)
		}
	}
	str(root)
	strs(stores)
	paths := make([]string, 0, len(entries))
	for p := range entries {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	b = binary.AppendUvarint(b, uint64(len(paths)))
	for _, p := range paths {
		e := entries[p]
		str(p)
		b = binary.AppendVarint(b, e.St.Size)
		b = binary.AppendVarint(b, e.St.MtimeNs)
		b = binary.AppendVarint(b, e.St.CtimeNs)
		b = binary.AppendUvarint(b, e.St.Ino)
		b = binary.AppendUvarint(b, e.St.Dev)
		b = binary.AppendUvarint(b, uint64(e.St.Mode))
		var flags byte
		if e.Meta.Empty {
			flags |= 1
		}
		if e.Meta.Skip {
			flags |= 2
		}
		b = append(b, flags)
		r := &e.Meta.Rec
		str(r.ID)
		str(r.Kind)
		str(r.Project)
		str(r.Status)
		str(r.Gloss)
		strs(r.Keywords)
		strs(r.Links)
		strs(e.Meta.Tokens)
	}
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b[start:], crcTable()))
}

// decoder reads the body; its strings share one string of the whole body.
type decoder struct {
	s   string
	err error
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	var x uint64
	for shift := uint(0); shift < 64; shift += 7 {
		if len(d.s) == 0 {
			break
		}
		c := d.s[0]
		d.s = d.s[1:]
		x |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return x
		}
	}
	d.err = errCorrupt
	return 0
}

func (d *decoder) varint() int64 {
	u := d.uvarint()
	return int64(u>>1) ^ -int64(u&1)
}

func (d *decoder) str() string {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.s)) {
		d.err = errCorrupt
		return ""
	}
	s := d.s[:n]
	d.s = d.s[n:]
	return s
}

func (d *decoder) strs() []string {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.s)) {
		d.err = errCorrupt
		return nil
	}
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func (d *decoder) byte() byte {
	if d.err != nil || len(d.s) == 0 {
		d.err = errCorrupt
		return 0
	}
	c := d.s[0]
	d.s = d.s[1:]
	return c
}

// decode reads an index body (after the header line) with its CRC.
func decode(body []byte) (root string, stores []string, entries map[string]entry, err error) {
	if len(body) < 4 {
		return "", nil, nil, errCorrupt
	}
	data, sum := body[:len(body)-4], binary.BigEndian.Uint32(body[len(body)-4:])
	if crc32.Checksum(data, crcTable()) != sum {
		return "", nil, nil, errCorrupt
	}
	d := &decoder{s: string(data)}
	root = d.str()
	stores = d.strs()
	n := d.uvarint()
	if n > uint64(len(d.s)) {
		return "", nil, nil, errCorrupt
	}
	entries = make(map[string]entry, n)
	for range n {
		p := d.str()
		var e entry
		e.St.Size = d.varint()
		e.St.MtimeNs = d.varint()
		e.St.CtimeNs = d.varint()
		e.St.Ino = d.uvarint()
		e.St.Dev = d.uvarint()
		e.St.Mode = uint32(d.uvarint())
		flags := d.byte()
		e.Meta.Empty, e.Meta.Skip = flags&1 != 0, flags&2 != 0
		r := &e.Meta.Rec
		r.Path = p
		r.ID, r.Kind, r.Project, r.Status, r.Gloss = d.str(), d.str(), d.str(), d.str(), d.str()
		r.Keywords = d.strs()
		r.Links = d.strs()
		e.Meta.Tokens = d.strs()
		if d.err != nil {
			return "", nil, nil, d.err
		}
		entries[p] = e
	}
	if len(d.s) != 0 {
		return "", nil, nil, errCorrupt
	}
	return root, stores, entries, nil
}
