package writerindex

import (
	"github.com/procedures-go/procedures/internal/cachefile"
	"github.com/procedures-go/procedures/internal/corpus"
)

// A directory's stat is judged by the racy-clean rule as a file's is (see
// cachefile.Judge).

// racyDir is [cachefile.Judge.Racy] of a directory's stat.
func racyDir(j cachefile.Judge, st dirStat) bool {
	return j.RacyAt(st.Dev, max(st.MtimeNs, st.CtimeNs))
}

// storedDir is a directory's stat as a save stores it: smudged (its ctime
// made -1, which no stat has) when racy.
func storedDir(j cachefile.Judge, st dirStat) dirStat {
	if racyDir(j, st) {
		st.CtimeNs = -1
	}
	return st
}

// viewDir is [cachefile.View] of a directory's stat.
func viewDir(d dirStat) dirStat {
	v := cachefile.View(corpus.FileStat{MtimeNs: d.MtimeNs, CtimeNs: d.CtimeNs, Ino: d.Ino, Dev: d.Dev})
	return dirStat{Dev: v.Dev, Ino: v.Ino, MtimeNs: v.MtimeNs, CtimeNs: v.CtimeNs}
}
