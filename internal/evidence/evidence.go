// Package evidence is the sweep behind `procedures evidence`: it streams
// the transcripts Claude Code writes (main sessions and their subagent
// forks, in both layouts Claude Code has used) and answers the retrieval
// loop's open questions in five sections: the model tier of each fork
// skill, the cost in four token buckets, the scout forks' retrieval
// compliance, warm starts, and gate activity; and it prices the turns
// (a dated table, prices.go) per day, week, month, session, skill and
// model (views.go). It only reads the transcripts; a per-user cache of
// what each file contributed (cache.go, memo.go) spares a re-run the
// files that did not change.
package evidence

import (
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultWeights weigh input, cache_creation, cache_read and output
// tokens into units.
var DefaultWeights = [4]float64{1, 1.25, 0.1, 5}

// Options say what to read and how to count it.
type Options struct {
	Projects     string    // the projects directory ($HOME/.claude/projects)
	Since, Until time.Time // rows at or after Since and before Until; zero: unbounded
	Session      string    // only this session id ("" all)
	Skill        string    // only this scope: a skill (short or plugin:skill) or "main"
	SplitAt      time.Time // when not zero, cost is split into before/after eras
	Weights      [4]float64
	// Pins are the models fork skills pin, by plugin:skill; a fork skill
	// without a pin is listed without one. PinFrom says, by the same key,
	// where each was read (plugin, installed, skill).
	Pins    map[string]string
	PinFrom map[string]string
	// Prices prices the turns (nil: DefaultPrices); Location is the time
	// zone of the day, week and month views (nil: time.Local).
	Prices   *Prices
	Location *time.Location
	// FailOpenLog is the fail-open log whose records are joined to the
	// sessions by session id ("" reads none).
	FailOpenLog string
	// CacheDir, when set, holds the per-file cache (see cache.go): files
	// unchanged since the last sweep are not read again, grown ones are
	// read from where it stopped. "" reads every file.
	CacheDir string
	// cacheStats, when set (tests), receives how many files the cache
	// answered whole, how many it resumed, and 1 when the report was the
	// memo.
	cacheStats *[3]int64
	// partsMade, when set (tests), counts the files whose parts a sweep
	// with the cache made (split).
	partsMade *int64
	// JSONOnly says the caller writes the report with WriteJSON alone: a
	// report the memo answers is then not decoded (its other fields are
	// left empty), and WriteJSON writes the memo as kept.
	JSONOnly bool
	// Workers is the number of files read at once (0: GOMAXPROCS).
	Workers int
	// Progress, when set, is called after each file with the bytes read
	// so far and the total to read; calls may come from several goroutines.
	Progress func(done, total int64)
}

// MemoryLimit is the soft heap limit the command sets for a sweep
// (runtime/debug.SetMemoryLimit, unless GOMEMLIMIT is set): the sweep's
// live heap is the line buffers and one entry per distinct turn, and the
// limit keeps the collector from letting garbage double it.
const MemoryLimit = 40 << 20

// Main is the scope of the main thread's turns.
const Main = "main"

// Sweep reads every transcript o names and returns the report.
func Sweep(o Options) (*Report, error) {
	if o.Weights == ([4]float64{}) {
		o.Weights = DefaultWeights
	}
	if o.Prices == nil {
		o.Prices = DefaultPrices()
	}
	if o.Location == nil {
		o.Location = time.Local
	}
	rep := newReport()
	var cc *cache
	if o.CacheDir != "" {
		cc = openCache(o.CacheDir, o.Projects, &o)
		defer cc.close()
	}
	trs, dirs, found, memo, err := list(cc, &o, &rep.Skipped)
	if memo != nil || err != nil {
		return memo, err
	}
	scans := readAll(trs, &o, progressOf(trs, &o), cc)
	ks := tally(scans, &o, cc.oldTable(), cc.oldFiles(), func(i int) *fileScan {
		s := scans[i]
		if s.fresh || cc != nil && cc.f != nil && s.entry.loadTurns(cc.f) {
			return s
		}
		s = scan(i, trs[i], &o, nil, nil) // its turns did not decode: read whole, not kept
		s.idx, scans[i] = i, s
		cc.drop(trs[i].path)
		return s
	})
	paths := make([]string, len(trs))
	for i := range trs {
		paths[i] = trs[i].path
	}
	sv := cc.startSave(o.CacheDir, paths, ks, scans) // written while the report is made
	merge(rep, scans, newParter(&o).settle(scans), &o)
	var head memoHead
	memoOK := false
	if cc != nil {
		// the inputs' fingerprint, the fail-open log stat'ed before it is read
		head, memoOK = cc.nextHead(trs, dirs, found, &o)
	}
	joinFailOpen(rep, readFailOpen(o.FailOpenLog, &o, &rep.Skipped), scans)
	if cc != nil {
		if !memoOK {
			head = memoHead{}
		}
		cc.finishSave(sv, o.CacheDir, paths, ks, head, rep)
		cc.stats(&o, cc.hits.Load(), cc.resumed.Load(), 0)
	}
	return rep, nil
}

// list is the transcripts to read, the directories discovery read, and
// what it skipped (also added to sk): as the cache's head lists them
// while every directory is unchanged, else discovered. memo is the
// report when the cache's memo answers.
func list(cc *cache, o *Options, sk *Skipped) (trs []transcript, dirs []dirStat, found *Skipped, memo *Report, err error) {
	listed := false
	if cc != nil {
		if trs, dirs, memo, listed = cc.unlisted(o, sk); memo != nil {
			cc.stats(o, int64(len(trs)), 0, 1)
			return nil, nil, nil, memo, nil
		}
	}
	if !listed {
		cc.startBody() // a directory changed: the memo is not likely to answer
		if trs, dirs, err = discover(o.Projects, sk); err != nil {
			return nil, nil, nil, nil, err
		}
		if o.Session != "" {
			trs = slices.DeleteFunc(trs, func(t transcript) bool { return t.session != "" && t.session != o.Session })
		}
	}
	f := *sk // what discovery skipped: part of the memo's fingerprint
	f.UnknownTypes = maps.Clone(f.UnknownTypes)
	if cc == nil {
		return trs, dirs, &f, nil, nil
	}
	if !listed {
		if memo := cc.memoReport(trs, &f, o); memo != nil {
			cc.stats(o, int64(len(trs)), 0, 1)
			return nil, nil, nil, memo, nil
		}
	}
	cc.waitBody()
	return trs, dirs, &f, nil, nil
}

// progressOf is the callback each file's read reports to, adding up the
// bytes for o.Progress (a no-op without it).
func progressOf(trs []transcript, o *Options) func(int64) {
	if o.Progress == nil {
		return func(int64) {}
	}
	var total, done int64
	var mu sync.Mutex
	for _, t := range trs {
		if fi, err := statSize(t.path); err == nil {
			total += fi
		}
	}
	return func(n int64) {
		mu.Lock()
		done += n
		d := done
		mu.Unlock()
		o.Progress(d, total)
	}
}

// readAll reads the transcripts, in parallel (o.Workers at once), and
// returns their scans in path order.
func readAll(trs []transcript, o *Options, progress func(int64), cc *cache) []*fileScan {
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	scans := make([]*fileScan, len(trs))
	order := readOrder(trs, cc)
	onCores(len(order), min(workers, max(len(trs), 1)), func() func(k int) {
		return func(k int) {
			i := order[k]
			scans[i] = scan(i, trs[i], o, progress, cc)
			scans[i].idx = i
		}
	})
	return scans
}

// onCores calls the function each of workers goroutines makes (with its
// own state) with every index below n, each index once.
func onCores(n, workers int, worker func() func(k int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			do := worker()
			for k := int(next.Add(1) - 1); k < n; k = int(next.Add(1) - 1) {
				do(k)
			}
		}()
	}
	wg.Wait()
}

// readOrder is the order the transcripts are taken in: the files to read
// first, the cache's hits (by the stats the memo took) after, so that
// the reading of what changed overlaps the decoding of what did not.
func readOrder(trs []transcript, cc *cache) []int {
	order := make([]int, 0, len(trs))
	var hits []int
	for i, tr := range trs {
		if e := cacheOld(cc, tr.path); e != nil && i < len(cc.now) && e.judge(cc.now[i]) == cacheHit {
			hits = append(hits, i)
		} else {
			order = append(order, i)
		}
	}
	return append(order, hits...)
}

func cacheOld(cc *cache, p string) *cacheEntry {
	if cc == nil {
		return nil
	}
	return cc.old[p]
}

func overlap(sid string, a, b *fileScan) Overlap {
	inter := 0
	for p := range b.fork.catPaths {
		if a.fork.catPaths[p] {
			inter++
		}
	}
	union := len(a.fork.catPaths) + len(b.fork.catPaths) - inter
	ov := Overlap{Session: sid, Earlier: a.agent, Later: b.agent,
		EarlierPaths: len(a.fork.catPaths), LaterPaths: len(b.fork.catPaths), Shared: inter}
	if union > 0 {
		j := float64(inter) / float64(union)
		ov.Jaccard = &j
	}
	return ov
}

// scopeCmp orders the main thread first, then skills by name.
func scopeCmp(a, b string) int {
	if (a == Main) != (b == Main) {
		if a == Main {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}

func weigh(u [4]int64, w [4]float64) float64 {
	return float64(u[0])*w[0] + float64(u[1])*w[1] + float64(u[2])*w[2] + float64(u[3])*w[3]
}

// pinMatches reports whether model is the one a skill pins: the same id,
// or, for a family alias (opus, sonnet, haiku), a model id with that
// family as one of its dash-separated parts.
func pinMatches(pin, model string) bool {
	if pin == model || pin == "inherit" {
		return true
	}
	if strings.Contains(pin, "-") {
		return strings.HasPrefix(model, pin)
	}
	return slices.Contains(strings.Split(model, "-"), pin)
}

// joinFailOpen adds the fail-open records of the swept sessions to their
// gate rows; records of other sessions are counted in Gates.FailOpenOther.
func joinFailOpen(rep *Report, rows map[string]int, scans []*fileScan) {
	seen := map[string]bool{}
	for _, s := range scans {
		if s.session != "" && s.lines > 0 {
			seen[s.session] = true
		}
	}
	at := map[string]int{}
	for i, g := range rep.Gates.Sessions {
		at[g.Session] = i
	}
	for sid, n := range rows {
		if !seen[sid] {
			rep.Gates.FailOpenOther += n
			continue
		}
		i, ok := at[sid]
		if !ok {
			i = len(rep.Gates.Sessions)
			at[sid] = i
			rep.Gates.Sessions = append(rep.Gates.Sessions, GateSession{Session: sid})
		}
		rep.Gates.Sessions[i].FailOpen += n
		rep.Gates.FailOpen += n
	}
	slices.SortFunc(rep.Gates.Sessions, func(a, b GateSession) int { return strings.Compare(a.Session, b.Session) })
}
