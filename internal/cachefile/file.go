package cachefile

import (
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Options is the indexes' setting, as the command read it (see
// config.Index): Off turns them off, and Dir is the directory holding the
// index files ("" when none is usable: no index is then kept).
type Options struct {
	Off bool
	Dir string
}

// MaxSize is the largest index file read (1 GiB); a larger one is rebuilt.
const MaxSize = 1 << 30

// The header each kind of index file starts with, followed by a space, its
// version and a newline (see [RootOf]).
const (
	QueryMagic   = "procedures-index"
	WritersMagic = "procedures-writers"
)

// Checksum is the CRC-32 (IEEE) an index file ends with. Not Castagnoli's:
// its tables for the SSE 4.2 instruction cost about 0.2 ms to make in every
// process that loads an index; IEEE's cost a tenth of that and run as fast
// (PCLMULQDQ).
func Checksum(b []byte) uint32 { return crc32.ChecksumIEEE(b) }

// ErrCorrupt is a decode's error for an index file that is not well formed.
var ErrCorrupt = errors.New("index: corrupt")

// ResolveRoot is root absolute and symlink-free, as the indexes key it.
func ResolveRoot(root string) (string, bool) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", false
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	return abs, true
}

// Inside reports whether dir is root or below it (after resolving what
// exists of dir), so an index is never kept inside the corpus.
func Inside(dir, root string) bool {
	d := dir
	for p := dir; ; p = filepath.Dir(p) {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			rest, _ := filepath.Rel(p, dir)
			d = filepath.Join(r, rest)
			break
		}
		if p == filepath.Dir(p) {
			break
		}
	}
	rel, err := filepath.Rel(root, d)
	return err != nil || rel == "." || !strings.HasPrefix(rel, "..")
}

// ReadFile reads the size bytes of f.
func ReadFile(f *os.File, size int64) ([]byte, error) {
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, err
	}
	return b, nil
}

// WriteAtomic replaces path with what write writes: a new file of mode
// 0600 in dir (O_EXCL, whatever a file it replaces had), renamed over
// path, which replaces a symlink instead of following it. There is no
// fsync: an index is a cache, and a file torn by a crash fails its
// checksum and is rebuilt.
func WriteAtomic(dir, path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(dir, ".idx-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// PrepareDir makes the index directory (0700, parents included) and checks
// it is one an index may write into: the user's own, writable by nobody
// else (see [Trusted]).
func PrepareDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !Trusted(fi, true) {
		return errors.New("index: untrusted directory " + dir)
	}
	return nil
}
