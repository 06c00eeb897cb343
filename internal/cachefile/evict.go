package cachefile

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// The cache is bounded by one rule, applied by every index save (at most
// once an hour per cache directory, see evictEvery) to the index files of
// the directory (*.idx and *.wdx; nothing else in it is touched):
//
//   - a file whose corpus root no longer exists is removed;
//   - a file not written for maxAge (its root not queried or written to
//     since) is removed;
//   - of what is left, the most recently written files are kept up to
//     maxFiles files and maxBytes bytes, the others removed.
//
// A root new to the cache sweeps at once when the directory holds more than
// maxFiles index files, down to three quarters of that (so that the next
// new roots cost a listing only).
//
// A file is removed by name (unlinked, never followed), and only a regular
// file the user owns; an index another run is writing is a temporary
// name (.idx-*), never touched.
const (
	maxFiles   = 256
	maxBytes   = 256 << 20
	maxAge     = 30 * 24 * time.Hour
	evictEvery = time.Hour
)

// evictStamp is the file whose mtime says when the cache was last swept.
const evictStamp = ".evicted"

// Evict sweeps dir by the rule above when it was not swept within
// evictEvery; force (a root new to the cache) applies the age and size caps
// at once, leaving the check of roots gone to the hourly sweep. keep is the
// index file just saved, never removed.
func Evict(dir, keep string, force bool) {
	stamp := filepath.Join(dir, evictStamp)
	now := clock()
	fi, err := os.Lstat(stamp)
	due := err != nil || now.Sub(fi.ModTime()) >= evictEvery || fi.ModTime().After(now.Add(time.Minute))
	if !due && !force {
		return
	}
	quick := force && !due // a due sweep is the whole one
	if due {
		if f, err := os.OpenFile(stamp, os.O_WRONLY|os.O_CREATE|OpenFlags, 0o600); err == nil {
			f.Close()
			os.Chtimes(stamp, now, now)
		}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	if quick && countIndexNames(ents) <= maxFiles {
		return // a listing: the size cap waits for the hourly sweep
	}
	limit := maxFiles
	if quick {
		limit = maxFiles * 3 / 4 // room for new roots before the next quick sweep
	}
	type file struct {
		path string
		mod  time.Time
		size int64
	}
	var files []file
	for _, e := range ents {
		name := e.Name()
		if !isIndexName(name) {
			continue
		}
		p := filepath.Join(dir, name)
		fi, err := os.Lstat(p)
		if err != nil || !Trusted(fi, false) {
			continue
		}
		// A root's existence is checked in the hourly sweep only: a sweep
		// for a new root stays a listing and a stat of each file.
		if p != keep && (now.Sub(fi.ModTime()) > maxAge || !quick && rootGone(p)) {
			os.Remove(p)
			continue
		}
		files = append(files, file{p, fi.ModTime(), fi.Size()})
	}
	slices.SortFunc(files, func(a, b file) int { return b.mod.Compare(a.mod) }) // newest first
	var n int
	var total int64
	for _, f := range files {
		n++
		total += f.size
		if f.path != keep && (n > limit || total > maxBytes) {
			os.Remove(f.path)
		}
	}
}

// rootGone reports whether the index file at p names a corpus root that no
// longer exists (a file it cannot read is judged by age and size alone).
func rootGone(p string) bool {
	f, err := os.OpenFile(p, os.O_RDONLY|OpenFlags, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [4096]byte
	n, _ := f.Read(b[:])
	root, ok := RootOf(b[:n])
	if !ok || !filepath.IsAbs(root) {
		return false
	}
	_, err = os.Lstat(root)
	return os.IsNotExist(err)
}

// RootOf is the root an index file's first bytes name: behind the header
// line, a varint length (query index) or a u32 length (writers' index).
// Each index's tests check that its files are read so.
func RootOf(b []byte) (string, bool) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return "", false
	}
	head, body := string(b[:i]), b[i+1:]
	switch {
	case strings.HasPrefix(head, QueryMagic+" "):
		n, k := binary.Uvarint(body)
		if k <= 0 || n > uint64(len(body)-k) {
			return "", false
		}
		return string(body[k : k+int(n)]), true
	case strings.HasPrefix(head, WritersMagic+" "):
		if len(body) < 4 {
			return "", false
		}
		n := binary.LittleEndian.Uint32(body)
		if uint64(n) > uint64(len(body)-4) {
			return "", false
		}
		return string(body[4 : 4+n]), true
	}
	return "", false
}

// isIndexName reports whether name is an index file's (not a temporary one).
func isIndexName(name string) bool {
	return (strings.HasSuffix(name, ".idx") || strings.HasSuffix(name, ".wdx")) && !strings.HasPrefix(name, ".")
}

func countIndexNames(ents []os.DirEntry) int {
	n := 0
	for _, e := range ents {
		if isIndexName(e.Name()) {
			n++
		}
	}
	return n
}
