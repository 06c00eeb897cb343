package evidence

import (
	"slices"
	"time"
)

// The turns of a sweep, added up per file. A turn (one message.id and
// requestId) can appear in several files (a resumed session copies the
// turns before it); across files the row with the largest four-bucket sum
// counts, the first file's in path order on a tie. A turn whose key no
// other file has is contested by none: it is added into its file's parts
// (per model, day and era) as soon as the file is read, and the cache
// keeps the parts, so an unchanged file adds a few parts, never its
// turns. Contested turns are kept as rows and settled across files. Both
// the cached and the uncached sweep add up the same parts in the same
// order, so their reports are identical to the last bit.

// Eras of the cost section (--split-at).
const (
	eraAll uint8 = iota
	eraBefore
	eraAfter
)

var eraNames = [...]string{"all", "before", "after"}

// A part is some turns of one file on one model, day and era, added up:
// what the tier, cost and usage views take from them.
type part struct {
	model            string
	day, week, month string // in the views' zone; noTime without a timestamp
	era              uint8
	priced           bool // the price table names the model
	sat              bool // a sum stopped at the largest int64
	u                [4]int64
	total            int64
	usd              float64
	turns            int
	first, last      int64 // unix nanoseconds of the first and last turn with a time (0: none)
}

// add counts one turn in p.
func (p *part) add(t *turnRow, usd float64) {
	for i, v := range t.u {
		p.sat = addSat(&p.u[i], v) || p.sat
	}
	p.sat = addSat(&p.total, t.sum()) || p.sat
	p.usd += usd
	p.turns++
	widen(&p.first, &p.last, t.at, t.at)
}

// widen stretches the span first..last (unix nanoseconds, 0: none yet)
// over from..to (0: no time).
func widen(first, last *int64, from, to int64) {
	if from != 0 && (*first == 0 || from < *first) {
		*first = from
	}
	*last = max(*last, to)
}

// A parter makes the parts of turns under one sweep's options: their
// prices, zone and era split.
type parter struct {
	o      *Options
	priced map[string]*Price // by model id, nil when unpriced
	cal    calendar
}

func newParter(o *Options) *parter {
	return &parter{o: o, priced: map[string]*Price{}, cal: calendar{loc: o.Location}}
}

func (pt *parter) price(model string) *Price {
	pr, ok := pt.priced[model]
	if !ok {
		pr, _ = pt.o.Prices.lookup(model)
		pt.priced[model] = pr
	}
	return pr
}

func (pt *parter) era(at int64) uint8 {
	switch {
	case pt.o.SplitAt.IsZero():
		return eraAll
	case fromUnixNano(at).Before(pt.o.SplitAt):
		return eraBefore
	}
	return eraAfter
}

// parts adds up turns into parts, in the order each part first appears.
func (pt *parter) parts(turns []turnRow) []part {
	var out []part
	type pkey struct {
		model, day string
		era        uint8
	}
	at := map[pkey]int{}
	for i := range turns {
		t := &turns[i]
		day, week, month := noTime, noTime, noTime
		if t.at != 0 {
			day, week, month = pt.cal.periods(t.at)
		}
		pr := pt.price(t.model)
		k := pkey{t.model, day, pt.era(t.at)}
		j, ok := at[k]
		if !ok {
			j = len(out)
			at[k] = j
			out = append(out, part{model: t.model, day: day, week: week, month: month, era: k.era, priced: pr != nil})
		}
		usd := 0.0
		if pr != nil {
			usd = pr.cost(t)
		}
		out[j].add(t, usd)
	}
	return out
}

// partsKey encodes the options parts depend on: the prices, the zone (by
// what it does, not its name: time.Local is "Local" whatever TZ says) and
// the era split (weights are applied to the sums, sections.go). Parts
// made under another key are made again from the turns.
func partsKey(o *Options) string {
	e := &enc{}
	e.prices(o.Prices)
	e.zone(o.Location)
	e.i(unixNano(o.SplitAt))
	return string(e.b)
}

// zoneFrom and zoneTo bound the span a zone is encoded over: every
// change of offset or name between them.
var (
	zoneFrom = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	zoneTo   = time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)
)

// zone encodes what a time zone does from 1970 to 2100: its name, and
// each period's start, abbreviation and offset (a zone without changes
// is one period). At most maxZonePeriods are encoded.
func (e *enc) zone(loc *time.Location) {
	e.s(loc.String())
	at := zoneFrom
	for range maxZonePeriods {
		name, off := at.In(loc).Zone()
		e.i(at.Unix())
		e.s(name)
		e.i(int64(off))
		_, end := at.In(loc).ZoneBounds()
		if end.IsZero() || !end.Before(zoneTo) || !end.After(at) {
			return
		}
		at = end
	}
}

const maxZonePeriods = 1024

// split divides a file's turns into its parts (the turns no other file
// has) and its contested turns.
func (pt *parter) split(fs *fileScan, ks *keys, file uint32) {
	var own, cont []turnRow
	for _, t := range fs.turns {
		if t.keyed && ks.contested(prefixOf(t.key), file) {
			cont = append(cont, t)
		} else {
			own = append(own, t)
		}
	}
	fs.parts, fs.cont, fs.resplit = pt.parts(own), cont, true
}

// settle makes the parts every file adds to the report, in path order:
// its own, then those of the contested turns it wins.
func (pt *parter) settle(scans []*fileScan) [][]part {
	type win struct {
		file int
		row  *turnRow
	}
	wins := map[turnKey]win{}
	for i, s := range scans {
		for j := range s.cont {
			t := &s.cont[j]
			if w, ok := wins[t.key]; !ok || t.sum() > w.row.sum() {
				wins[t.key] = win{i, t}
			}
		}
	}
	out := make([][]part, len(scans))
	var won []turnRow
	for i, s := range scans {
		out[i] = s.parts
		won = won[:0]
		for j := range s.cont {
			if t := &s.cont[j]; wins[t.key].row == t {
				won = append(won, *t)
			}
		}
		if len(won) > 0 {
			out[i] = append(slices.Clip(s.parts), pt.parts(won)...)
		}
	}
	return out
}
