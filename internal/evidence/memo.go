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
	e.s(o.Location.String())
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

// A memoHead is the cache file's head: the last report, the fingerprint
// of its inputs, each transcript's path and stat (with the time of the
// stat) in path order, the directories discovery read, and the length of
// the body that follows.
type memoHead struct {
	fp      string
	paths   []string
	stats   []fileStat
	memo    []byte
	bodyLen int64
	// the directories discovery read, and what it skipped (encoded): while
	// every directory is as it was, the transcripts are the paths above
	dirs  []dirStat
	found []byte
}

func (h *memoHead) encode(key string) []byte {
	e := &enc{}
	e.s(key)
	e.s(h.fp)
	e.n(len(h.paths))
	for i, p := range h.paths {
		e.s(p)
		e.stat(&h.stats[i])
		e.i(h.stats[i].at)
	}
	e.n(len(h.memo))
	e.raw(h.memo)
	e.i(h.bodyLen)
	e.n(len(h.dirs))
	for i := range h.dirs {
		e.s(h.dirs[i].path)
		e.stat(&h.dirs[i].fileStat)
		e.i(h.dirs[i].at)
	}
	e.n(len(h.found))
	e.raw(h.found)
	return e.b
}

// decode reads a head encoded for key.
func (h *memoHead) decode(b []byte, key string) error {
	d := &dec{b: b}
	if d.s() != key {
		return errCorrupt
	}
	h.fp = d.s()
	n := d.n()
	h.paths, h.stats = make([]string, n), make([]fileStat, n)
	for i := range n {
		h.paths[i] = d.s()
		d.stat(&h.stats[i])
		h.stats[i].at = d.i()
	}
	h.memo = d.raw(d.n())
	h.bodyLen = d.i()
	h.dirs = make([]dirStat, d.n())
	for i := range h.dirs {
		h.dirs[i].path = d.s()
		d.stat(&h.dirs[i].fileStat)
		h.dirs[i].at = d.i()
	}
	h.found = d.raw(d.n())
	if d.err != nil || len(d.b) != 0 || h.bodyLen < 0 {
		return errCorrupt
	}
	if len(h.memo) == 0 {
		h.memo = nil
	}
	return nil
}

// unchangedStats stats every transcript now and returns the stats when
// they are the memo's, each a regular file of ours unchanged by the rule
// of a cache hit.
func (c *cache) unchangedStats(trs []transcript) ([]fileStat, bool) {
	h := &c.head
	if len(h.paths) != len(trs) || h.memo == nil {
		return nil, false
	}
	stats := make([]fileStat, len(trs))
	ok := everyOf(len(trs), func(i int) bool {
		if h.paths[i] != trs[i].path {
			return false
		}
		at := time.Now()
		fi, err := os.Lstat(trs[i].path)
		if err != nil || !fi.Mode().IsRegular() || !trusted(fi) {
			return false
		}
		stats[i] = statOf(fi, at)
		return (&cacheEntry{fileStat: h.stats[i]}).judge(stats[i], nil) == cacheHit
	})
	return stats, ok
}

// everyOf reports whether ok holds for every index below n, asking on
// every core at once (the stats of a warm run are most of its wall time)
// and stopping early once one does not.
func everyOf(n int, ok func(i int) bool) bool {
	var failed atomic.Bool
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0), max(n/64, 1))
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

// memoUnlisted is the memo, when every directory discovery read is
// unchanged (by the rule of a cache hit), without listing them again:
// the transcripts are then those the memo was made from, and what
// discovery skipped is what it skipped then.
func (c *cache) memoUnlisted(o *Options) *Report {
	h := &c.head
	if h.memo == nil || len(h.dirs) == 0 {
		return nil
	}
	unchanged := everyOf(len(h.dirs), func(i int) bool {
		at := time.Now()
		fi, err := os.Lstat(h.dirs[i].path)
		return err == nil && (&cacheEntry{fileStat: h.dirs[i].fileStat}).judge(statOf(fi, at), nil) == cacheHit
	})
	if !unchanged {
		return nil
	}
	var found Skipped
	d := &dec{b: h.found}
	if d.skipped(&found); d.err != nil || len(d.b) != 0 {
		return nil
	}
	trs := make([]transcript, len(h.paths))
	for i, p := range h.paths {
		trs[i].path = p
	}
	return c.memoReport(trs, &found, o)
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
	if o.JSONOnly {
		return &Report{memoJSON: c.head.memo}
	}
	var r Report
	if json.Unmarshal(c.head.memo, &r) != nil {
		return nil
	}
	r.memoJSON = c.head.memo
	return &r
}

// nextHead is the head to write for this sweep's inputs, when every
// transcript has an entry (read or kept), from the stats the entries
// hold, with the directories discovery read and what it skipped (sk);
// ok is false when there is none to write.
func (c *cache) nextHead(trs []transcript, dirs []dirStat, sk *Skipped, o *Options) (memoHead, bool) {
	h := memoHead{paths: make([]string, len(trs)), stats: make([]fileStat, len(trs)), dirs: dirs}
	found := &enc{}
	found.skipped(sk)
	h.found = found.b
	for i, tr := range trs {
		e := c.next[tr.path]
		if e == nil {
			return memoHead{}, false
		}
		h.paths[i], h.stats[i] = tr.path, e.fileStat
	}
	var ok bool
	h.fp, ok = fingerprint(h.stats, sk, o, time.Now())
	return h, ok
}

// remember keeps rep as the memo to write, with its head h; rep is not
// changed after.
func (c *cache) remember(h memoHead, rep *Report) {
	memo, err := rep.indented()
	if err != nil {
		return
	}
	h.memo = memo
	c.newHead = h
	rep.memoJSON = memo // what WriteJSON writes: made once
}
