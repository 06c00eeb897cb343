package cachefile

import (
	"time"

	"github.com/procedures-go/procedures/internal/corpus"
)

// The racy-clean rule of both indexes, as git intends it. A stat is
// trusted to stand for what was read only when the file (or directory)
// last changed strictly before the moment the run was observing it: the
// run takes that moment from the clock before its first stat (see
// [Observe]), at full resolution. A stat whose change time is not older,
// at the file system's granularity, could be left as it is by a later
// change in the same granule; such an entry is smudged when the index is
// saved (its stored size set to -1, which no stat has), so that the next
// run reads it again, and only an entry that is not racy is ever stored as
// it was stat-ed. Loaded entries were judged when they were saved: a
// loaded entry is trusted when its stat is the present one.

// clock is the clock the observed moment is taken from (a variable for
// tests).
var clock = time.Now

// Slack covers the kernel stamping files from its coarse clock, which lags
// the clock [Observe] reads by up to one tick (10 ms at the slowest tick
// Linux has): a change made after the observed moment may carry a time up
// to that much before it.
const Slack = 100 * time.Millisecond

// wholeGranule is the granule of a time with no sub-second part: a file
// system keeping whole seconds may keep even ones (FAT's two seconds, the
// coarsest common granule), so such a time is judged at two.
const wholeGranule = 2 * time.Second

// Observe is the moment a run observes the corpus from: taken before its
// first stat.
func Observe() int64 { return clock().UnixNano() }

// changed is when st's file last changed: the later of its mtime and ctime
// (an mtime put back leaves the ctime at the change).
func changed(st corpus.FileStat) int64 { return max(st.MtimeNs, st.CtimeNs) }

// racyAt reports whether a change at time ts (ns) is not strictly older
// than the moment observed (ns), at the granule ts shows: whole seconds
// are judged at [wholeGranule], finer times at [Slack].
func racyAt(ts, observed int64) bool {
	bound := observed - int64(Slack)
	if ts%1e9 == 0 {
		bound -= bound % int64(wholeGranule) // the start of its granule (bound > 0)
	}
	return ts >= bound
}

// Judge decides what a run stores as taken: Observed is the moment it
// observes from (ns, see [Observe]); Fine is the device whose stats are
// never racy (see [FineDev]), 0 for none.
type Judge struct {
	Observed int64
	Fine     uint64
}

// NewJudge is the judge of a run observing root from now: the moment
// taken before its first stat, and root's device when it is fine.
func NewJudge(root string) Judge { return Judge{Observed: Observe(), Fine: FineDev(root)} }

// Racy reports whether st, stat-ed after the moment observed, may not be
// trusted by a later run.
func (j Judge) Racy(st corpus.FileStat) bool {
	return j.RacyAt(st.Dev, changed(st))
}

// RacyAt reports whether a change at time ts (ns) on device dev may not be
// trusted by a later run.
func (j Judge) RacyAt(dev uint64, ts int64) bool {
	if j.Fine != 0 && dev == j.Fine && ts%1e9 != 0 {
		return false // a later change moves the ctime (FineDev)
	}
	return racyAt(ts, j.Observed)
}

// Smudged is st made unequal to every stat: its size -1.
func Smudged(st corpus.FileStat) corpus.FileStat {
	st.Size = -1
	return st
}

// Stored is st as a save stores it: smudged when racy.
func (j Judge) Stored(st corpus.FileStat) corpus.FileStat {
	if j.Racy(st) {
		return Smudged(st)
	}
	return st
}

// viewStat, when set, replaces every stat the indexes take (for tests: a
// file system of coarser times).
var viewStat func(corpus.FileStat) corpus.FileStat

// View is st as the indexes see it (see viewStat).
func View(st corpus.FileStat) corpus.FileStat {
	if viewStat != nil {
		return viewStat(st)
	}
	return st
}
