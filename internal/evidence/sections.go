package evidence

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"time"
)

// The report's sections, each from its own builder over the merged sweep:
// tier, cost and the usage views from the turns; retrieval, warm starts
// and gates from the files. A new section is a new builder here and a
// line in merge.

// A fork is one subagent transcript after the merge.
type fork struct {
	scan  *fileScan
	skill string // plugin:skill, or "subagent" when nothing names one
}

// merged is the sweep after its files are read: every file's scan in path
// order, the parts each adds (parts.go), each file's scope (main, a
// skill, or subagent), the forks, and the options.
type merged struct {
	scans   []*fileScan
	parts   [][]part
	scope   []string
	forks   []fork
	digests map[string]bool // session NUL agent of forks whose result carried a digest
	o       *Options
}

// merge fills rep's sections from the scans and the parts each adds.
func merge(rep *Report, scans []*fileScan, parts [][]part, o *Options) {
	m := newMerged(scans, parts, o)
	for _, s := range scans {
		rep.Files++
		rep.Lines += s.lines
		rep.Bytes += s.bytes
		rep.Skipped.add(&s.skipped)
	}
	inv := m.invocations()
	rep.Tier = m.tier(inv)
	uv := m.usage()
	uv.put(rep)
	var sat bool
	rep.Cost, sat = m.cost(inv)
	rep.Saturated = rep.Saturated || sat
	rep.NoPin = noPin(o.Pins)
	rep.Retrieval = m.retrieval()
	rep.Warm = m.warm()
	rep.Gates = m.gates()
	rep.Sessions = m.sessions()
	rep.Forks = len(m.forks)
}

// newMerged names each file's scope: a fork's skill is its rows'
// attributionSkill, else the parent's Skill call that spawned it, else
// "subagent".
func newMerged(scans []*fileScan, parts [][]part, o *Options) *merged {
	m := &merged{scans: scans, parts: parts, scope: make([]string, len(scans)), digests: map[string]bool{}, o: o}
	spawned := map[string]string{} // session NUL agent -> skill
	for _, s := range scans {
		for a, sk := range s.spawned {
			spawned[s.session+"\x00"+a] = sk
		}
		for a := range s.digests {
			m.digests[s.session+"\x00"+a] = true
		}
	}
	for i, s := range scans {
		if !s.isFork() {
			m.scope[i] = Main
			continue
		}
		sk := cmp.Or(s.skill, spawned[s.session+"\x00"+s.agent], "subagent")
		m.scope[i] = sk
		if s.lines > 0 {
			m.forks = append(m.forks, fork{scan: s, skill: sk})
		}
	}
	return m
}

// keep reports whether a scope is in the report (--skill).
func (m *merged) keep(sc string) bool {
	want := m.o.Skill
	if want == "" {
		return true
	}
	if want == Main || sc == Main {
		return want == sc
	}
	return sc == want || isSkill(sc, want)
}

// sessions counts the main transcripts with rows.
func (m *merged) sessions() int {
	ids := map[string]bool{}
	for _, s := range m.scans {
		if !s.isFork() && s.session != "" && s.lines > 0 {
			ids[s.session] = true
		}
	}
	return len(ids)
}

// era is the --split-at era of a moment.
func (m *merged) era(t time.Time) string {
	switch {
	case m.o.SplitAt.IsZero():
		return "all"
	case t.Before(m.o.SplitAt):
		return "before"
	}
	return "after"
}

// invocations counts the forks per skill (per era by their first row),
// and the main transcripts with rows for the main thread.
func (m *merged) invocations() map[[2]string]int {
	inv := map[[2]string]int{}
	count := func(scope string, first time.Time) {
		inv[[2]string{scope, "all"}]++
		if !m.o.SplitAt.IsZero() {
			inv[[2]string{scope, m.era(first)}]++
		}
	}
	for _, f := range m.forks {
		count(f.skill, f.scan.first)
	}
	for _, s := range m.scans {
		if !s.isFork() && s.lines > 0 {
			count(Main, s.first)
		}
	}
	return inv
}

// each calls fn with every part in the report (--skill), in path order,
// with its file's scope.
func (m *merged) each(fn func(p *part, file int, scope string)) {
	for i, ps := range m.parts {
		sc := m.scope[i]
		if !m.keep(sc) {
			continue
		}
		for j := range ps {
			fn(&ps[j], i, sc)
		}
	}
}

// tier is the tier section: turns per scope and model, the pin, the last
// turn off it, and the first and last turn.
func (m *merged) tier(inv map[[2]string]int) []TierRow {
	rows := map[[2]string]*TierRow{}
	m.each(func(p *part, _ int, sc string) {
		k := [2]string{sc, p.model}
		tr := rows[k]
		if tr == nil {
			tr = &TierRow{Skill: sc, Model: p.model}
			rows[k] = tr
		}
		tr.Turns += p.turns
		widen(&tr.first, &tr.last, p.first, p.last)
		if pin, ok := m.o.Pins[sc]; ok && pin != "" && !pinMatches(pin, p.model) {
			if at := fromUnixNano(p.last); at.After(tr.lastOff) {
				tr.lastOff = at
				tr.LastOffPin = at.UTC().Format(time.RFC3339Nano)
			}
		}
	})
	out := make([]TierRow, 0, len(rows))
	for _, tr := range rows {
		tr.Invocations = inv[[2]string{tr.Skill, "all"}]
		tr.Pin = m.o.Pins[tr.Skill]
		if tr.Pin != "" {
			tr.PinFrom = m.o.PinFrom[tr.Skill]
		}
		tr.FirstTurn, tr.LastTurn = stamp(tr.first), stamp(tr.last)
		out = append(out, *tr)
	}
	slices.SortFunc(out, func(a, b TierRow) int {
		return cmp.Or(scopeCmp(a.Skill, b.Skill), strings.Compare(a.Model, b.Model))
	})
	return out
}

// usage is the money and time views of the turns.
func (m *merged) usage() *usageViews {
	uv := newUsageViews(m.o.Prices)
	m.each(func(p *part, file int, sc string) { uv.add(p, m.scans[file].session, sc) })
	return uv
}

// cost is the cost section: per scope and era, the four buckets, the
// weighted units and each model's share of them; saturated is true when
// a sum stopped at the largest int64. Weighted units are weighed from
// the whole numbers of tokens, once per row and per model, not added up
// turn by turn: the same whatever order the turns come in.
func (m *merged) cost(inv map[[2]string]int) (rows []CostRow, saturated bool) {
	cost := map[[2]string]*CostRow{}
	models := map[[3]string]*[4]int64{}
	m.each(func(p *part, _ int, sc string) {
		e := eraNames[p.era]
		ck := [2]string{sc, e}
		cr := cost[ck]
		if cr == nil {
			cr = &CostRow{Scope: sc, Era: e, Models: map[string]float64{}}
			cost[ck] = cr
		}
		mk := [3]string{sc, e, p.model}
		mu := models[mk]
		if mu == nil {
			mu = &[4]int64{}
			models[mk] = mu
		}
		for i, s := range []*int64{&cr.Input, &cr.CacheCreation, &cr.CacheRead, &cr.Output} {
			saturated = addSat(s, p.u[i]) || saturated
			addSat(&mu[i], p.u[i])
		}
		saturated = saturated || p.sat
		cr.Turns += p.turns
	})
	for _, cr := range cost {
		cr.Weighted = weigh([4]int64{cr.Input, cr.CacheCreation, cr.CacheRead, cr.Output}, m.o.Weights)
	}
	for k, u := range models {
		if cr := cost[[2]string{k[0], k[1]}]; cr.Weighted > 0 {
			cr.Models[k[2]] = weigh(*u, m.o.Weights) / cr.Weighted
		}
	}
	rows = make([]CostRow, 0, len(cost))
	for _, cr := range cost {
		cr.Invocations = inv[[2]string{cr.Scope, cr.Era}]
		if cr.Turns > 0 {
			cr.PerTurn = cr.Weighted / float64(cr.Turns)
		}
		rows = append(rows, *cr)
	}
	eraRank := map[string]int{"all": 0, "before": 1, "after": 2}
	slices.SortFunc(rows, func(a, b CostRow) int {
		return cmp.Or(scopeCmp(a.Scope, b.Scope), eraRank[a.Era]-eraRank[b.Era])
	})
	return rows, saturated
}

func noPin(pins map[string]string) bool {
	for _, p := range pins {
		if p != "" {
			return false
		}
	}
	return true
}

// scouts are the how-do-i forks in the report, in path order.
func (m *merged) scouts() []*fileScan {
	var out []*fileScan
	for _, f := range m.forks {
		if isSkill(f.skill, "how-do-i") && m.keep(f.skill) {
			out = append(out, f.scan)
		}
	}
	return out
}

// retrieval is the retrieval section: how the scouts retrieved.
func (m *merged) retrieval() Retrieval {
	r := Retrieval{Violations: []Violation{}}
	for _, s := range m.scouts() {
		r.Forks++
		r.QueryRecords += s.fork.queryRecords
		if s.fork.catBatches == 1 {
			r.SingleCat++
		}
		r.Unexpanded += s.fork.unexpanded
		if s.fork.recallFirst() {
			r.RecallFirst++
		}
		switch {
		case len(s.fork.violations) > 0 || s.fork.catBatches > 1:
		case s.fork.queryRecords == 0:
			r.NoQuery++
		default:
			r.Compliant++
		}
		for _, v := range s.fork.violations {
			v.Session, v.Fork = s.session, s.agent
			r.Violations = append(r.Violations, v)
		}
	}
	return r
}

// warm is the warm-start section: digests read and written by the
// scouts, and, per session with two or more, the overlap of consecutive
// scouts' reads.
func (m *merged) warm() Warm {
	w := Warm{Overlap: []Overlap{}}
	bySession := map[string][]*fileScan{}
	for _, s := range m.scouts() {
		w.Forks++
		if s.fork.digestReads > 0 {
			w.DigestReads++
		}
		if m.digests[s.session+"\x00"+s.agent] {
			w.DigestsWritten++
		}
		bySession[s.session] = append(bySession[s.session], s)
	}
	for _, s := range m.scans {
		if !s.isFork() {
			w.TypedWithoutDigest += s.typed
		}
	}
	for _, sid := range slices.Sorted(maps.Keys(bySession)) {
		fs := bySession[sid]
		if len(fs) < 2 {
			continue
		}
		w.Sessions++
		slices.SortStableFunc(fs, func(a, b *fileScan) int { return a.first.Compare(b.first) })
		for i, s := range fs[1:] {
			if s.fork.warmRead {
				w.WarmReads++
			}
			w.Overlap = append(w.Overlap, overlap(sid, fs[i], s))
		}
	}
	return w
}

// gates is the gates section, per session (the fail-open log's records
// are joined later, joinFailOpen).
func (m *merged) gates() Gates {
	g := Gates{Sessions: []GateSession{}}
	per := map[string]*GateSession{}
	for _, s := range m.scans {
		if s.gates == (GateSession{}) {
			continue
		}
		gs := per[s.session]
		if gs == nil {
			gs = &GateSession{Session: s.session}
			per[s.session] = gs
		}
		gs.Denials += s.gates.Denials
		gs.StopBlocks += s.gates.StopBlocks
		gs.Releases += s.gates.Releases
	}
	for _, gs := range per {
		g.Denials += gs.Denials
		g.StopBlocks += gs.StopBlocks
		g.Releases += gs.Releases
		g.Sessions = append(g.Sessions, *gs)
	}
	slices.SortFunc(g.Sessions, func(a, b GateSession) int { return strings.Compare(a.Session, b.Session) })
	return g
}
