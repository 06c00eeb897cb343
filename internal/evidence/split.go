package evidence

import (
	"bytes"
	"hash/crc32"
	"io"
	"os"
	"runtime"
	"sync"
)

// SplitAt is the size from which a main transcript is read in parts, one
// per core, split at line boundaries. A fork's transcript is always read
// in one piece: what its lines mean depends on the digest reads before
// them.
var SplitAt int64 = 32 << 20

// splitMax is the most parts a file is read in (0: GOMAXPROCS).
var splitMax = 0

func splitParts(fs *fileScan, n int64) int {
	if fs.isFork() || n < SplitAt {
		return 1
	}
	most := splitMax
	if most == 0 {
		most = runtime.GOMAXPROCS(0)
	}
	return int(min(int64(most), max(1, n/(SplitAt/4))))
}

// readSplit reads [off, size) of a main transcript in parts that end at
// line boundaries, in parallel, and folds them into fs in order: a turn
// seen in two parts keeps its largest row (the earlier on a tie), the
// first session id, timestamp and skill win, and a Stop released across a
// boundary counts as it does in one read. A main transcript's digest-read
// state is never set (only forks' calls set it), so no line's meaning
// depends on the part before.
func (fs *fileScan) readSplit(f *os.File, off, size int64, o *Options, parts int, hash bool) {
	bounds := []int64{off}
	for i := 1; i < parts; i++ {
		b := lineStart(f, off+(size-off)*int64(i)/int64(parts), size)
		if b > bounds[len(bounds)-1] && b < size {
			bounds = append(bounds, b)
		}
	}
	bounds = append(bounds, size)
	subs := make([]*fileScan, len(bounds)-1)
	var wg sync.WaitGroup
	for i := range subs {
		sub := newFileScan(fs.tr)
		if i == 0 {
			sub = fs // the first part continues fs's own state
		}
		subs[i] = sub
		wg.Add(1)
		go func() {
			defer wg.Done()
			sub.readPart(io.NewSectionReader(f, bounds[i], bounds[i+1]-bounds[i]), o)
		}()
	}
	wg.Wait()
	for _, sub := range subs[1:] {
		fs.fold(sub)
	}
	if hash {
		fs.sum = crcFrom(fs.sum, f, off, size)
	}
}

// crcFrom continues sum over [off, size) of f.
func crcFrom(sum uint32, f *os.File, off, size int64) uint32 {
	buf := make([]byte, 256<<10)
	r := io.NewSectionReader(f, off, size-off)
	for {
		n, err := r.Read(buf)
		sum = crc32.Update(sum, castagnoli(), buf[:n])
		if err != nil {
			return sum
		}
	}
}

// lineStart is the offset just after the first newline at or after at
// (size when there is none).
func lineStart(f *os.File, at, size int64) int64 {
	buf := make([]byte, 64<<10)
	for at < size {
		n, err := f.ReadAt(buf[:min(int64(len(buf)), size-at)], at)
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			return at + int64(i) + 1
		}
		at += int64(n)
		if err != nil {
			break
		}
	}
	return size
}

// fold adds a later part of the same file to fs.
func (fs *fileScan) fold(p *fileScan) {
	at := make(map[turnKey]int, len(fs.turns))
	for i, t := range fs.turns {
		if t.keyed {
			at[t.key] = i
		}
	}
	for _, t := range p.turns {
		if i, ok := at[t.key]; ok && t.keyed {
			if t.sum() > fs.turns[i].sum() {
				fs.turns[i] = t
			}
			continue
		}
		if t.keyed {
			at[t.key] = len(fs.turns)
		}
		fs.turns = append(fs.turns, t)
	}
	if fs.session == "" {
		fs.session = p.session
	}
	if fs.agent == "" {
		fs.agent = p.agent
	}
	if fs.skill == "" {
		fs.skill = p.skill
	}
	if !p.first.IsZero() && (fs.first.IsZero() || p.first.Before(fs.first)) {
		fs.first = p.first
	}
	for a, sk := range p.spawned {
		if fs.spawned == nil {
			fs.spawned, fs.digests = map[string]string{}, map[string]bool{}
		}
		fs.spawned[a] = sk
	}
	for a := range p.digests {
		fs.digests[a] = true
	}
	fs.typed += p.typed
	fs.gates.Denials += p.gates.Denials
	fs.gates.StopBlocks += p.gates.StopBlocks
	fs.gates.Releases += p.gates.Releases
	if p.stopSeen {
		if fs.blocked && !p.firstBlock {
			fs.gates.Releases++
		}
		fs.blocked = p.blocked
		if !fs.stopSeen {
			fs.stopSeen, fs.firstBlock = true, p.firstBlock
		}
	}
	fs.skipped.add(&p.skipped)
	fs.lines += p.lines
}
