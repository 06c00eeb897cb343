package cachefile

import (
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// WaitTrusted waits until every file and directory below root (root
// included) changed strictly before the moment a run observing now would
// take: until a stat of each is stored as taken, not smudged. It never
// changes a time, so it holds on a file system of any granule. For tests.
func WaitTrusted(root string) {
	var last int64
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		var st syscall.Stat_t
		if err == nil && syscall.Lstat(p, &st) == nil {
			last = max(last, st.Mtim.Nano(), st.Ctim.Nano())
		}
		return nil
	})
	for racyAt(last, Observe()) {
		time.Sleep(20 * time.Millisecond)
	}
}
