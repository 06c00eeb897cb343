package cachefile

import (
	"time"

	"github.com/procedures-go/procedures/internal/corpus"
)

// The hooks below are for tests only (the indexes' own and the commands'):
// each changes what every index of the process sees until the function it
// returns is called.

// OneSecond makes the indexes see a file system of one-second times on
// which every change falls in the second stamp (each stat's mtime and
// ctime read as stamp's second), and observe from the moment at; calling
// it again moves both. The function it returns restores the real ones.
func OneSecond(stamp, at time.Time) (restore func()) {
	oldClock, oldView := clock, viewStat
	clock = func() time.Time { return at }
	viewStat = func(st corpus.FileStat) corpus.FileStat {
		st.MtimeNs, st.CtimeNs = stamp.Unix()*1e9, stamp.Unix()*1e9
		return st
	}
	return func() { clock, viewStat = oldClock, oldView }
}

// NoFine judges every stat by the racy rule alone, as on a file system
// not known to move the ctime on every later change; the function it
// returns restores the detection.
func NoFine() (restore func()) {
	old := noFine
	noFine = true
	return func() { noFine = old }
}
