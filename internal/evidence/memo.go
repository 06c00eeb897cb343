package evidence

import (
	"encoding/json"
	"os"
	"slices"
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
	prices, err := json.Marshal(o.Prices)
	if err != nil {
		return "", false
	}
	e.raw(prices)
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

func formatFloat(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

// unchangedStats stats every transcript now and returns the stats when
// each is a regular file of ours that the cache holds as unchanged.
func (c *cache) unchangedStats(trs []transcript) ([]fileStat, bool) {
	if len(c.old) != len(trs) || c.memo == nil {
		return nil, false
	}
	stats := make([]fileStat, len(trs))
	for i, tr := range trs {
		e := c.old[tr.path]
		if e == nil {
			return nil, false
		}
		at := time.Now()
		fi, err := os.Lstat(tr.path)
		if err != nil || !fi.Mode().IsRegular() || !trusted(fi) {
			return nil, false
		}
		st := statOf(fi, at)
		if e.judge(st, nil) != cacheHit {
			return nil, false
		}
		stats[i] = st
	}
	return stats, true
}

// memoReport is the memo when the inputs are those it was made from.
func (c *cache) memoReport(trs []transcript, sk *Skipped, o *Options) *Report {
	stats, ok := c.unchangedStats(trs)
	if !ok {
		return nil
	}
	fp, ok := fingerprint(stats, sk, o, time.Now())
	if !ok || fp != c.memoFP {
		return nil
	}
	var r Report
	if json.Unmarshal(c.memo, &r) != nil {
		return nil
	}
	return &r
}

// fingerprintNext is the fingerprint of this sweep's inputs, when every
// transcript has an entry (read or kept), from the stats the entries hold.
func (c *cache) fingerprintNext(trs []transcript, sk *Skipped, o *Options) (string, bool) {
	stats := make([]fileStat, len(trs))
	for i, tr := range trs {
		e := c.next[tr.path]
		if e == nil {
			return "", false
		}
		stats[i] = e.fileStat
	}
	return fingerprint(stats, sk, o, time.Now())
}

// remember keeps rep as the memo to write, under fingerprint fp.
func (c *cache) remember(fp string, rep *Report) {
	memo, err := json.Marshal(rep)
	if err != nil {
		return
	}
	c.newFP, c.newMemo = fp, memo
}
