package evidence

import (
	"encoding/json"
	"maps"
	"math"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// The memo: the cache file also keeps the last report, with a fingerprint
// of everything it was made from: every transcript's stat (in path
// order), what discovery skipped, every option that shapes the report,
// and the fail-open log's stat. When every transcript is unchanged (by
// the same rule as a cache hit) and the fingerprint is the same, the
// report is the memo, and no transcript is opened.

// fingerprint encodes the inputs of a report; ok is false when one of
// them cannot be trusted as unchanged (a fail-open log changed within the
// racy window).
func fingerprint(stats []fileStat, sk *Skipped, o *Options, now time.Time) (string, bool) {
	e := &enc{}
	e.n(len(stats))
	for i := range stats {
		e.stat(&stats[i])
	}
	e.skipped(sk)
	e.s(o.Skill)
	e.i(unixNano(o.SplitAt))
	for _, w := range o.Weights {
		e.s(formatFloat(w))
	}
	names := make([]string, 0, len(o.Pins))
	for k := range o.Pins {
		names = append(names, k)
	}
	slices.Sort(names)
	e.n(len(names))
	for _, k := range names {
		e.s(k)
		e.s(o.Pins[k])
		e.s(o.PinFrom[k])
	}
	e.prices(o.Prices)
	e.zone(o.Location)
	e.s(o.FailOpenLog)
	if o.FailOpenLog != "" {
		if fi, err := os.Lstat(o.FailOpenLog); err == nil {
			st := statOf(fi, now)
			if st.dev == 0 || st.mtime > now.UnixNano()-int64(racyWindow) || st.ctime > now.UnixNano()-int64(racyWindow) {
				return "", false
			}
			e.stat(&st)
		} else {
			e.s(err.Error())
		}
	}
	return string(e.b), true
}

// prices encodes a price table: its date, and each model's prices in
// name order.
func (e *enc) prices(p *Prices) {
	e.s(p.Date)
	e.n(len(p.Models))
	for _, name := range slices.Sorted(maps.Keys(p.Models)) {
		e.s(name)
		pr := p.Models[name]
		e.price(&pr)
	}
}

func (e *enc) price(p *Price) {
	for _, f := range []float64{p.Input, p.Output, p.CacheWrite, p.CacheWrite1h, p.CacheRead, p.Fast} {
		e.u(math.Float64bits(f))
	}
	e.bool(p.Above200k != nil)
	if p.Above200k != nil {
		e.price(p.Above200k)
	}
}

func formatFloat(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

// A memoHead is the cache file's head: the fingerprint of the memo's
// inputs, each transcript's path and stat (with the time of the stat) in
// path order, the directories discovery read and what it skipped, and
// the lengths of the body's region and index and of the memo (with its
// CRC-32C), which come before it in that order.
type memoHead struct {
	fp    string
	trs   []transcript // in path order
	stats []fileStat
	// the directories discovery read, and what it skipped (encoded): while
	// every directory is as it was, the transcripts are the paths above
	dirs                         []dirStat
	found                        []byte
	regionLen, indexLen, memoLen int64
	memoSum                      uint32
	memo                         []byte // read on first use (loadMemo), or to write
}

func (h *memoHead) encode(key string) []byte {
	size := len(key) + len(h.fp) + len(h.found) + 64
	for _, tr := range h.trs {
		size += len(tr.path) + 64 + len(tr.session) + len(tr.agent)
	}
	for i := range h.dirs {
		size += len(h.dirs[i].path) + 64
	}
	e := &enc{b: make([]byte, 0, size)}
	e.s(key)
	e.s(h.fp)
	e.n(len(h.trs))
	for i, tr := range h.trs {
		e.s(tr.path)
		e.stat(&h.stats[i])
		e.i(h.stats[i].at)
		e.s(tr.session)
		e.s(tr.agent)
		e.bool(tr.flat)
	}
	e.n(len(h.dirs))
	for i := range h.dirs {
		e.s(h.dirs[i].path)
		e.stat(&h.dirs[i].fileStat)
		e.i(h.dirs[i].at)
	}
	e.n(len(h.found))
	e.raw(h.found)
	for _, n := range []int64{h.regionLen, h.indexLen, h.memoLen} {
		e.i(n)
	}
	e.u(uint64(h.memoSum))
	return e.b
}

// decode reads a head encoded for key.
func (h *memoHead) decode(b []byte, key string) error {
	d := sharedDec(b)
	if d.s() != key {
		return errCorrupt
	}
	h.fp = d.s()
	n := d.count(10) // a path, a stat, its time, a session, an agent, a flag
	h.stats, h.trs = make([]fileStat, n), make([]transcript, n)
	for i := range n {
		p := d.s()
		d.stat(&h.stats[i])
		h.stats[i].at = d.i()
		h.trs[i] = transcript{path: p, session: d.s(), agent: d.s(), flat: d.bool()}
	}
	h.dirs = make([]dirStat, d.count(7)) // a path, a stat, its time
	for i := range h.dirs {
		h.dirs[i].path = d.s()
		d.stat(&h.dirs[i].fileStat)
		h.dirs[i].at = d.i()
	}
	h.found = d.raw(d.n())
	h.regionLen, h.indexLen, h.memoLen = d.i(), d.i(), d.i()
	h.memoSum = uint32(d.u())
	if d.err != nil || len(d.b) != 0 || h.regionLen < 0 || h.indexLen < 4 || h.memoLen < 0 {
		return errCorrupt
	}
	return nil
}

// unchangedStats stats every transcript now, on every core, and keeps
// the stats for the sweep's cache hits (c.now; a file that is not a
// regular file of ours has none); it returns them with whether they are
// the memo's, each unchanged by the rule of a cache hit. The first file
// that is not starts the reading of the body, while the others are
// stat'ed.
func (c *cache) unchangedStats(trs []transcript) ([]fileStat, bool) {
	stats := make([]fileStat, len(trs))
	h := &c.head
	same := len(h.trs) == len(trs) && h.memoLen > 0
	if !same {
		c.startBody()
	}
	var changed atomic.Bool
	onCores(len(trs), statWorkers(len(trs)), func() func(i int) {
		return func(i int) {
			at := time.Now()
			if fi, err := os.Lstat(trs[i].path); err == nil && fi.Mode().IsRegular() && trusted(fi) {
				stats[i] = statOf(fi, at)
			}
			if same && (h.trs[i].path != trs[i].path || stats[i].dev == 0 || (&cacheEntry{fileStat: h.stats[i]}).judge(stats[i]) != cacheHit) {
				changed.Store(true)
				c.startBody()
			}
		}
	})
	c.now = stats
	if !same || changed.Load() {
		return nil, false
	}
	return stats, true
}

// statWorkers is how many goroutines stat n paths: every core, with at
// least 64 paths each.
func statWorkers(n int) int { return min(runtime.GOMAXPROCS(0), max(n/64, 1)) }

// everyOf reports whether ok holds for every index below n, asking on
// every core at once (the stats of a warm run are most of its wall time)
// and stopping early once one does not.
func everyOf(n int, ok func(i int) bool) bool {
	var failed atomic.Bool
	var wg sync.WaitGroup
	workers := statWorkers(n)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n && !failed.Load(); i += workers {
				if !ok(i) {
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	return !failed.Load()
}

// unlisted is the transcripts, the directories and what discovery
// skipped (into sk) as the head lists them, when every directory
// discovery read is unchanged (by the rule of a cache hit): discovery
// would find the same. ok is false when it cannot say; memo is the
// report when the transcripts are unchanged too.
func (c *cache) unlisted(o *Options, sk *Skipped) (trs []transcript, dirs []dirStat, memo *Report, ok bool) {
	h := &c.head
	if len(h.dirs) == 0 {
		return nil, nil, nil, false
	}
	unchanged := everyOf(len(h.dirs), func(i int) bool {
		at := time.Now()
		fi, err := os.Lstat(h.dirs[i].path)
		return err == nil && (&cacheEntry{fileStat: h.dirs[i].fileStat}).judge(statOf(fi, at)) == cacheHit
	})
	if !unchanged {
		return nil, nil, nil, false
	}
	var found Skipped
	d := &dec{b: h.found}
	if d.skipped(&found); d.err != nil || len(d.b) != 0 {
		return nil, nil, nil, false
	}
	sk.add(&found)
	trs = slices.Clone(h.trs)
	return trs, h.dirs, c.memoReport(trs, &found, o), true
}

// stats reports what the cache did to a test (Options.cacheStats).
func (c *cache) stats(o *Options, hits, resumed, memo int64) {
	if o.cacheStats != nil {
		*o.cacheStats = [3]int64{hits, resumed, memo}
	}
}

// memoReport is the memo when the inputs are those it was made from.
func (c *cache) memoReport(trs []transcript, sk *Skipped, o *Options) *Report {
	stats, ok := c.unchangedStats(trs)
	if !ok {
		return nil
	}
	fp, ok := fingerprint(stats, sk, o, time.Now())
	if !ok || fp != c.head.fp {
		return nil
	}
	memo := c.loadMemo()
	if memo == nil {
		return nil
	}
	if o.JSONOnly {
		return &Report{memoJSON: memo}
	}
	var r Report
	if json.Unmarshal(memo, &r) != nil {
		return nil
	}
	r.memoJSON = memo
	return &r
}

// nextHead is the head to write for this sweep's inputs, when every
// transcript has an entry (read or kept), from the stats the entries
// hold, with the directories discovery read and what it skipped (sk);
// ok is false when there is none to write.
func (c *cache) nextHead(trs []transcript, dirs []dirStat, sk *Skipped, o *Options) (memoHead, bool) {
	h := memoHead{trs: trs, stats: make([]fileStat, len(trs)), dirs: dirs}
	found := &enc{}
	found.skipped(sk)
	h.found = found.b
	for i, tr := range trs {
		e := c.next[tr.path]
		if e == nil {
			return memoHead{}, false
		}
		h.stats[i] = e.fileStat
	}
	var ok bool
	h.fp, ok = fingerprint(h.stats, sk, o, time.Now())
	return h, ok
}
