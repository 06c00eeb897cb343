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
	"cmp"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
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
	trs, err := discover(o.Projects, &rep.Skipped)
	if err != nil {
		return nil, err
	}
	if o.Session != "" {
		trs = slices.DeleteFunc(trs, func(t transcript) bool { return t.session != "" && t.session != o.Session })
	}
	scans := make([]*fileScan, len(trs))
	var total int64
	var mu sync.Mutex
	var done int64
	progress := func(n int64) {}
	if o.Progress != nil {
		for _, t := range trs {
			if fi, err := statSize(t.path); err == nil {
				total += fi
			}
		}
		progress = func(n int64) {
			mu.Lock()
			done += n
			d := done
			mu.Unlock()
			o.Progress(d, total)
		}
	}
	var cc *cache
	if o.CacheDir != "" {
		cc = openCache(o.CacheDir, o.Projects, &o)
		found := rep.Skipped
		defer cc.close()
		if memo := cc.memoReport(trs, &found, &o); memo != nil {
			if o.cacheStats != nil {
				*o.cacheStats = [3]int64{int64(len(trs)), 0, 1}
			}
			return memo, nil
		}
		cc.loadBody()
	}
	found := rep.Skipped // what discovery skipped: part of the memo's fingerprint
	found.UnknownTypes = maps.Clone(found.UnknownTypes)
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// Files are read in parallel and their turns merged in path order as
	// they complete, so a file's rows are dropped once merged.
	next := make(chan int)
	done_ := make(chan *fileScan)
	var wg sync.WaitGroup
	for range min(workers, max(len(trs), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				s := scan(trs[i], &o, progress, cc)
				s.idx = i
				done_ <- s
			}
		}()
	}
	go func() {
		for i := range trs {
			next <- i
		}
		close(next)
		wg.Wait()
		close(done_)
	}()
	hint := 0
	if cc != nil {
		hint = cc.turns
	}
	ts := &turnSet{at: make(map[turnKey]int, hint), turns: make([]gturn, 0, hint)}
	waiting := map[int]*fileScan{}
	merged := 0
	for s := range done_ {
		waiting[s.idx] = s
		for {
			w, ok := waiting[merged]
			if !ok {
				break
			}
			delete(waiting, merged)
			ts.add(w)
			if cc == nil {
				w.turns = nil // merged: the cache, when on, writes them at the end
			}
			scans[merged] = w
			merged++
		}
	}
	merge(rep, scans, ts, &o)
	var head memoHead
	memoOK := false
	if cc != nil {
		// the inputs' fingerprint, the fail-open log stat'ed before it is read
		head, memoOK = cc.nextHead(trs, &found, &o)
	}
	joinFailOpen(rep, readFailOpen(o.FailOpenLog, &o, &rep.Skipped), scans)
	if cc != nil {
		if memoOK {
			cc.remember(head, rep)
		}
		cc.save(o.CacheDir)
		if o.cacheStats != nil {
			*o.cacheStats = [3]int64{cc.hits.Load(), cc.resumed.Load(), 0}
		}
	}
	return rep, nil
}

// A turnSet is every turn of the sweep: one (message.id, requestId) pair
// across all files, from its row with the largest four-bucket sum, the
// first read on a tie.
type turnSet struct {
	turns []gturn
	at    map[turnKey]int
}

type gturn struct {
	turnRow
	file int // index of the file the counted row came from
}

func (ts *turnSet) add(s *fileScan) {
	for _, t := range s.turns {
		if j, ok := ts.at[t.key]; ok && t.keyed {
			if t.sum() > ts.turns[j].sum() {
				ts.turns[j] = gturn{t, s.idx}
			}
			continue
		}
		if t.keyed {
			ts.at[t.key] = len(ts.turns)
		}
		ts.turns = append(ts.turns, gturn{t, s.idx})
	}
}

// A fork is one subagent transcript after the merge.
type fork struct {
	scan  *fileScan
	skill string // plugin:skill, or "subagent" when nothing names one
}

func merge(rep *Report, scans []*fileScan, ts *turnSet, o *Options) {
	spawned := map[string]string{} // session NUL agent -> skill
	digests := map[string]bool{}
	for _, s := range scans {
		rep.Files++
		rep.Lines += s.lines
		rep.Bytes += s.bytes
		rep.Skipped.add(&s.skipped)
		for a, sk := range s.spawned {
			spawned[s.session+"\x00"+a] = sk
		}
		for a := range s.digests {
			digests[s.session+"\x00"+a] = true
		}
	}
	scope := make([]string, len(scans))
	var forks []fork
	sessions := map[string]bool{}
	for i, s := range scans {
		if !s.isFork() {
			scope[i] = Main
			if s.session != "" && (s.lines > 0) {
				sessions[s.session] = true
			}
			continue
		}
		sk := s.skill
		if sk == "" {
			sk = spawned[s.session+"\x00"+s.agent]
		}
		if sk == "" {
			sk = "subagent"
		}
		scope[i] = sk
		if s.lines > 0 {
			forks = append(forks, fork{scan: s, skill: sk})
		}
	}
	keep := func(sc string) bool {
		if o.Skill == "" {
			return true
		}
		if o.Skill == Main || sc == Main {
			return o.Skill == sc
		}
		return sc == o.Skill || isSkill(sc, o.Skill)
	}

	mergeTierCost(rep, scans, ts, scope, forks, keep, o)
	mergeRetrieval(rep, forks, scans, digests, keep)
	mergeGates(rep, scans)
	rep.Sessions = len(sessions)
	rep.Forks = len(forks)
}

// mergeTierCost fills the tier and cost sections and the usage views
// from the turns, each in the scope of the file it came from.
func mergeTierCost(rep *Report, scans []*fileScan, ts *turnSet, scope []string, forks []fork, keep func(string) bool, o *Options) {
	tier := map[[2]string]*TierRow{}
	cost := map[[2]string]*CostRow{}
	costModels := map[[3]string]float64{}
	era := func(t time.Time) string {
		if o.SplitAt.IsZero() {
			return "all"
		}
		if t.Before(o.SplitAt) {
			return "before"
		}
		return "after"
	}
	uv := newUsageViews(o.Prices, o.Location)
	for _, t := range ts.turns {
		sc := scope[t.file]
		if !keep(sc) {
			continue
		}
		uv.add(&t.turnRow, scans[t.file].session, sc)
		at := fromUnixNano(t.at)
		k := [2]string{sc, t.model}
		tr := tier[k]
		if tr == nil {
			tr = &TierRow{Skill: sc, Model: t.model}
			tier[k] = tr
		}
		tr.Turns++
		if t.at != 0 {
			if tr.first == 0 || t.at < tr.first {
				tr.first = t.at
			}
			tr.last = max(tr.last, t.at)
		}
		if pin, ok := o.Pins[sc]; ok && pin != "" && !pinMatches(pin, t.model) {
			if at.After(tr.lastOff) {
				tr.lastOff = at
				tr.LastOffPin = at.UTC().Format(time.RFC3339Nano)
			}
		}
		e := era(at)
		ck := [2]string{sc, e}
		cr := cost[ck]
		if cr == nil {
			cr = &CostRow{Scope: sc, Era: e, Models: map[string]float64{}}
			cost[ck] = cr
		}
		sat := addSat(&cr.Input, t.u[0])
		sat = addSat(&cr.CacheCreation, t.u[1]) || sat
		sat = addSat(&cr.CacheRead, t.u[2]) || sat
		sat = addSat(&cr.Output, t.u[3]) || sat
		rep.Saturated = rep.Saturated || sat
		w := weigh(t.u, o.Weights)
		cr.Weighted += w
		cr.Turns++
		costModels[[3]string{sc, e, t.model}] += w
	}
	// Invocations: forks per skill (per era by their first row), and the
	// sessions for the main thread.
	inv := map[[2]string]int{}
	for _, f := range forks {
		inv[[2]string{f.skill, "all"}]++
		if !o.SplitAt.IsZero() {
			inv[[2]string{f.skill, era(f.scan.first)}]++
		}
	}
	for _, s := range scans {
		if !s.isFork() && s.lines > 0 {
			inv[[2]string{Main, "all"}]++
			if !o.SplitAt.IsZero() {
				inv[[2]string{Main, era(s.first)}]++
			}
		}
	}
	for _, tr := range tier {
		tr.Invocations = inv[[2]string{tr.Skill, "all"}]
		tr.Pin = o.Pins[tr.Skill]
		if tr.Pin != "" {
			tr.PinFrom = o.PinFrom[tr.Skill]
		}
		tr.FirstTurn, tr.LastTurn = stamp(tr.first), stamp(tr.last)
		rep.Tier = append(rep.Tier, *tr)
	}
	slices.SortFunc(rep.Tier, func(a, b TierRow) int {
		return cmp.Or(scopeCmp(a.Skill, b.Skill), strings.Compare(a.Model, b.Model))
	})
	uv.put(rep)
	rep.NoPin = true
	for _, p := range o.Pins {
		if p != "" {
			rep.NoPin = false
		}
	}
	for k, w := range costModels {
		cr := cost[[2]string{k[0], k[1]}]
		if cr.Weighted > 0 {
			cr.Models[k[2]] = w / cr.Weighted
		}
	}
	for _, cr := range cost {
		cr.Invocations = inv[[2]string{cr.Scope, cr.Era}]
		if cr.Turns > 0 {
			cr.PerTurn = cr.Weighted / float64(cr.Turns)
		}
		rep.Cost = append(rep.Cost, *cr)
	}
	eraRank := map[string]int{"all": 0, "before": 1, "after": 2}
	slices.SortFunc(rep.Cost, func(a, b CostRow) int {
		return cmp.Or(scopeCmp(a.Scope, b.Scope), eraRank[a.Era]-eraRank[b.Era])
	})

}

// mergeRetrieval fills the retrieval and warm-start sections from the
// how-do-i forks.
func mergeRetrieval(rep *Report, forks []fork, scans []*fileScan, digests map[string]bool, keep func(string) bool) {
	bySession := map[string][]*fileScan{}
	for _, f := range forks {
		if !isSkill(f.skill, "how-do-i") || !keep(f.skill) {
			continue
		}
		s := f.scan
		rep.Retrieval.Forks++
		rep.Retrieval.QueryRecords += s.fork.queryRecords
		if s.fork.catBatches == 1 {
			rep.Retrieval.SingleCat++
		}
		rep.Retrieval.Unexpanded += s.fork.unexpanded
		if s.fork.recallFirst() {
			rep.Retrieval.RecallFirst++
		}
		switch {
		case len(s.fork.violations) > 0 || s.fork.catBatches > 1:
		case s.fork.queryRecords == 0:
			rep.Retrieval.NoQuery++
		default:
			rep.Retrieval.Compliant++
		}
		for _, v := range s.fork.violations {
			v.Session, v.Fork = s.session, s.agent
			rep.Retrieval.Violations = append(rep.Retrieval.Violations, v)
		}
		rep.Warm.Forks++
		if s.fork.digestReads > 0 {
			rep.Warm.DigestReads++
		}
		if digests[s.session+"\x00"+s.agent] {
			rep.Warm.DigestsWritten++
		}
		bySession[s.session] = append(bySession[s.session], s)
	}
	for _, s := range scans {
		if !s.isFork() {
			rep.Warm.TypedWithoutDigest += s.typed
		}
	}
	var sids []string
	for sid := range bySession {
		sids = append(sids, sid)
	}
	slices.Sort(sids)
	for _, sid := range sids {
		fs := bySession[sid]
		if len(fs) < 2 {
			continue
		}
		rep.Warm.Sessions++
		slices.SortStableFunc(fs, func(a, b *fileScan) int { return a.first.Compare(b.first) })
		for i, s := range fs {
			if i > 0 && s.fork.warmRead {
				rep.Warm.WarmReads++
			}
			if i > 0 {
				rep.Warm.Overlap = append(rep.Warm.Overlap, overlap(sid, fs[i-1], s))
			}
		}
	}

}

// mergeGates fills the gates section, per session.
func mergeGates(rep *Report, scans []*fileScan) {
	gs := map[string]*GateSession{}
	for _, s := range scans {
		if s.gates == (GateSession{}) {
			continue
		}
		g := gs[s.session]
		if g == nil {
			g = &GateSession{Session: s.session}
			gs[s.session] = g
		}
		g.Denials += s.gates.Denials
		g.StopBlocks += s.gates.StopBlocks
		g.Releases += s.gates.Releases
	}
	for _, g := range gs {
		rep.Gates.Denials += g.Denials
		rep.Gates.StopBlocks += g.StopBlocks
		rep.Gates.Releases += g.Releases
		rep.Gates.Sessions = append(rep.Gates.Sessions, *g)
	}
	slices.SortFunc(rep.Gates.Sessions, func(a, b GateSession) int { return strings.Compare(a.Session, b.Session) })
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
