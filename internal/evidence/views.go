package evidence

import (
	"cmp"
	"slices"
	"strings"
	"time"
)

// Views are the usage views --by names: tokens and dollars per day, week
// (starting Monday), month, session, skill and model.
var Views = []string{"day", "week", "month", "session", "skill", "model"}

// A UsageRow is the tokens and dollars of one key of a view (a day, a
// session, ...) or of the whole sweep.
type UsageRow struct {
	Key           string   `json:"key"`
	Input         int64    `json:"input"`
	CacheCreation int64    `json:"cache_creation"`
	CacheRead     int64    `json:"cache_read"`
	Output        int64    `json:"output"`
	TotalTokens   int64    `json:"total_tokens"`
	CostUSD       float64  `json:"cost_usd"` // priced turns only
	Turns         int      `json:"turns"`
	UnpricedTurns int      `json:"unpriced_turns"` // turns on a model the price table does not name
	Models        []string `json:"models"`
	First         string   `json:"first,omitempty"` // the first and last turn (RFC 3339, UTC)
	Last          string   `json:"last,omitempty"`

	models      map[string]bool
	first, last int64
}

// An Unpriced model is one the price table does not name: its turns are
// counted in tokens and left out of the dollars.
type Unpriced struct {
	Model  string `json:"model"`
	Turns  int    `json:"turns"`
	Tokens int64  `json:"tokens"`
}

// add counts a part's turns in r; it reports whether a sum saturated.
func (r *UsageRow) add(p *part) bool {
	sat := addSat(&r.Input, p.u[0])
	sat = addSat(&r.CacheCreation, p.u[1]) || sat
	sat = addSat(&r.CacheRead, p.u[2]) || sat
	sat = addSat(&r.Output, p.u[3]) || sat
	sat = addSat(&r.TotalTokens, p.total) || sat
	r.CostUSD += p.usd
	r.Turns += p.turns
	if !p.priced {
		r.UnpricedTurns += p.turns
	}
	if r.models == nil {
		r.models = map[string]bool{}
	}
	r.models[p.model] = true
	widen(&r.first, &r.last, p.first, p.last)
	return sat || p.sat
}

func (r *UsageRow) finish() {
	r.Models = make([]string, 0, len(r.models))
	for m := range r.models {
		r.Models = append(r.Models, m)
	}
	slices.Sort(r.Models)
	r.First, r.Last = stamp(r.first), stamp(r.last)
}

func stamp(n int64) string {
	if n == 0 {
		return ""
	}
	return fromUnixNano(n).UTC().Format(time.RFC3339Nano)
}

// usageViews accumulates the totals and every view.
type usageViews struct {
	prices   *Prices
	total    UsageRow
	views    map[string]map[string]*UsageRow
	unpriced map[string]*Unpriced
	sat      bool
}

// A calendar names the day, week (its Monday) and month of a time in one
// zone, keeping the last quarter hour's (every zone's offset is a whole
// number of quarter hours, so they hold for all of it).
type calendar struct {
	loc              *time.Location
	quarter          int64
	day, week, month string
}

const quarterHour = int64(15 * time.Minute)

// periods is the day, week and month of a time.
func (c *calendar) periods(ns int64) (day, week, month string) {
	q := ns / quarterHour
	if ns < 0 {
		q--
	}
	if q == c.quarter && c.day != "" {
		return c.day, c.week, c.month
	}
	at := fromUnixNano(ns).In(c.loc)
	day, month = at.Format(time.DateOnly), at.Format("2006-01")
	y, m, d := at.Date()
	back := (int(at.Weekday()) + 6) % 7 // days since Monday
	week = time.Date(y, m, d-back, 0, 0, 0, 0, c.loc).Format(time.DateOnly)
	c.quarter, c.day, c.week, c.month = q, day, week, month
	return day, week, month
}

func newUsageViews(p *Prices) *usageViews {
	v := &usageViews{prices: p,
		views: map[string]map[string]*UsageRow{}, unpriced: map[string]*Unpriced{}}
	for _, name := range Views {
		v.views[name] = map[string]*UsageRow{}
	}
	return v
}

// noTime is the day, week and month of a turn without a timestamp.
const noTime = "(no time)"

// add counts a part of a file of this session and scope.
func (v *usageViews) add(p *part, session, scope string) {
	if !p.priced {
		u := v.unpriced[p.model]
		if u == nil {
			u = &Unpriced{Model: p.model}
			v.unpriced[p.model] = u
		}
		u.Turns += p.turns
		v.sat = addSat(&u.Tokens, p.total) || v.sat
	}
	v.sat = v.total.add(p) || v.sat
	for _, kv := range [...][2]string{{"day", p.day}, {"week", p.week}, {"month", p.month},
		{"session", session}, {"skill", scope}, {"model", p.model}} {
		m := v.views[kv[0]]
		r := m[kv[1]]
		if r == nil {
			r = &UsageRow{Key: kv[1]}
			m[kv[1]] = r
		}
		v.sat = r.add(p) || v.sat
	}
}

// put writes the views into rep: time views in time order, the others
// most expensive first (then most tokens, then by name).
func (v *usageViews) put(rep *Report) {
	v.total.Key = "total"
	v.total.finish()
	rep.Totals = v.total
	rep.PricesDate = v.prices.Date
	rep.Saturated = rep.Saturated || v.sat
	rep.Views = map[string][]UsageRow{}
	for _, name := range Views {
		rows := []UsageRow{}
		for _, r := range v.views[name] {
			r.finish()
			rows = append(rows, *r)
		}
		byTime := name == "day" || name == "week" || name == "month"
		slices.SortFunc(rows, func(a, b UsageRow) int {
			if byTime {
				return strings.Compare(a.Key, b.Key)
			}
			return cmp.Or(cmp.Compare(b.CostUSD, a.CostUSD), cmp.Compare(b.TotalTokens, a.TotalTokens), strings.Compare(a.Key, b.Key))
		})
		rep.Views[name] = rows
	}
	rep.Unpriced = []Unpriced{}
	for _, u := range v.unpriced {
		rep.Unpriced = append(rep.Unpriced, *u)
	}
	slices.SortFunc(rep.Unpriced, func(a, b Unpriced) int {
		return cmp.Or(cmp.Compare(b.Tokens, a.Tokens), strings.Compare(a.Model, b.Model))
	})
}
