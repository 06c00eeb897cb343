package cachefile

import (
	"os"

	"golang.org/x/sys/unix"
)

// MapFile maps the size bytes of f read-only, so that an index's blocks
// are read from the page cache in place rather than copied (the file is
// replaced by rename, never written in place); unmap releases the mapping.
// A file that cannot be mapped is read.
func MapFile(f *os.File, size int64) (b []byte, unmap func(), err error) {
	if size > 0 {
		if b, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_PRIVATE|unix.MAP_POPULATE); err == nil {
			return b, func() { unix.Munmap(b) }, nil
		}
	}
	b, err = ReadFile(f, size)
	return b, func() {}, err
}
