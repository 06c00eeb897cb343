package evidence

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// A table is rows of cells: on a terminal its columns are aligned (the
// first to the left, the others, numbers, to the right); in a pipe each
// row is its cells joined by tabs, for cut and awk.
type table struct {
	rows [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(w io.Writer, aligned bool) error {
	if !aligned {
		for _, r := range t.rows {
			if _, err := io.WriteString(w, strings.Join(r, "\t")+"\n"); err != nil {
				return err
			}
		}
		return nil
	}
	var width []int
	for _, r := range t.rows {
		for i, c := range r {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	var b strings.Builder
	for _, r := range t.rows {
		b.Reset()
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-len([]rune(c)))
			switch {
			case i == 0 && len(r) == 1:
				b.WriteString(c)
			case i == 0:
				b.WriteString(c + pad)
			default:
				b.WriteString("  " + pad + c)
			}
		}
		if _, err := io.WriteString(w, strings.TrimRight(b.String(), " ")+"\n"); err != nil {
			return err
		}
	}
	return nil
}

func num(n int64) string { return strconv.FormatInt(n, 10) }

// costCell is a row's dollars: "unpriced" when none of its turns has a
// price, a star when some have none.
func costCell(u *UsageRow) string {
	switch {
	case u.Turns > 0 && u.UnpricedTurns == u.Turns:
		return "unpriced"
	case u.UnpricedTurns > 0:
		return dollars(u.CostUSD) + "*"
	}
	return dollars(u.CostUSD)
}

// dollars formats a cost: cents from a dollar up, four decimals below.
func dollars(usd float64) string {
	if usd >= 1 {
		return fmt.Sprintf("$%.2f", usd)
	}
	return fmt.Sprintf("$%.4f", usd)
}

// viewTitle is a view's first column heading.
func viewTitle(view string) string {
	if view == "week" {
		return "week (from Monday)"
	}
	return view
}

// WriteView writes one usage view (--by): a row per key, the four buckets,
// total tokens, dollars, turns and models, then the totals row.
func (r *Report) WriteView(w io.Writer, view string, aligned bool) error {
	t := &table{}
	t.add(viewTitle(view), "input", "cache write", "cache read", "output", "total tokens", "cost", "turns", "models")
	row := func(u UsageRow) {
		cost := costCell(&u)
		t.add(u.Key, num(u.Input), num(u.CacheCreation), num(u.CacheRead), num(u.Output), num(u.TotalTokens),
			cost, strconv.Itoa(u.Turns), strings.Join(u.Models, ", "))
	}
	for _, u := range r.Views[view] {
		row(u)
	}
	row(r.Totals)
	if err := t.write(w, aligned); err != nil {
		return err
	}
	return r.writeUnpriced(w)
}

func (r *Report) writeUnpriced(w io.Writer) error {
	if len(r.Unpriced) == 0 {
		return nil
	}
	var ms []string
	for i, u := range r.Unpriced {
		if i == topN {
			ms = append(ms, fmt.Sprintf("and %d more (--json lists all)", len(r.Unpriced)-topN))
			break
		}
		ms = append(ms, fmt.Sprintf("%s (%d turns, %d tokens)", u.Model, u.Turns, u.Tokens))
	}
	_, err := fmt.Fprintf(w, "* some turns unpriced, not in the price table of %s, so not in the cost: %s (--prices FILE adds a price)\n",
		r.PricesDate, strings.Join(ms, ", "))
	return err
}

// topN bounds each list of the summary, so it fits one screen for any
// history.
const topN = 5

// WriteSummary writes the one-screen summary: the totals in tokens and
// dollars, the most expensive sessions, skills and models, the forks off
// their pin, retrieval compliance (defined where it is printed), warm
// starts, gates, and what was skipped.
func (r *Report) WriteSummary(w io.Writer, aligned bool) error {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	span := ""
	if r.Totals.First != "" {
		span = fmt.Sprintf(", %s to %s", r.Totals.First[:10], r.Totals.Last[:10])
	}
	p("procedures evidence: %d turns in %d sessions and %d forks%s (%d files)\n\n", r.Totals.Turns, r.Sessions, r.Forks, span, r.Files)
	io.WriteString(w, b.String())
	b.Reset()
	t := &table{}
	t.add("usage", "input", "cache write", "cache read", "output", "total tokens", "cost")
	cost := costCell(&r.Totals)
	t.add("total", num(r.Totals.Input), num(r.Totals.CacheCreation), num(r.Totals.CacheRead), num(r.Totals.Output), num(r.Totals.TotalTokens), cost)
	if err := t.write(w, aligned); err != nil {
		return err
	}
	if err := r.writeUnpriced(w); err != nil {
		return err
	}
	for _, v := range []struct{ view, title string }{{"session", "sessions"}, {"skill", "skills"}, {"model", "models"}} {
		rows := r.Views[v.view]
		if len(rows) == 0 {
			continue
		}
		more := ""
		if len(rows) > topN {
			more = fmt.Sprintf(" (top %d of %d: --by %s lists all)", topN, len(rows), v.view)
		}
		fmt.Fprintf(w, "\n%s by cost%s\n", v.title, more)
		t := &table{}
		t.add(v.view, "turns", "total tokens", "cost")
		for _, u := range rows[:min(len(rows), topN)] {
			t.add(u.Key, strconv.Itoa(u.Turns), num(u.TotalTokens), costCell(&u))
		}
		if err := t.write(w, aligned); err != nil {
			return err
		}
	}
	p("\n")
	r.summaryTier(p)
	rt := r.Retrieval
	p("retrieval: %d how-do-i forks: %d compliant, %d made no query, %d broke a rule\n",
		rt.Forks, rt.Compliant, rt.NoQuery, rt.Forks-rt.Compliant-rt.NoQuery)
	p("  compliant: ran query-records, searched no store another way, left no ${CLAUDE_…} unexpanded, read with at most one --cat batch\n")
	wm := r.Warm
	p("warm starts: %d of %d forks read a prior digest back; %d digests written; %d sessions with two or more forks\n",
		wm.WarmReads, wm.Forks, wm.DigestsWritten, wm.Sessions)
	g := r.Gates
	p("gates: %d how-do-i denials, %d Stop blocks, %d releases, %d fail-open records\n", g.Denials, g.StopBlocks, g.Releases, g.FailOpen)
	if s := r.Skipped.line(); s != "" {
		p("skipped: %s\n", s)
	}
	if r.Saturated {
		p("saturated: a token sum reached %d and stopped there\n", int64(1<<63-1))
	}
	p("\nmore: --by day|week|month|session|skill|model, --detail (every section, per session), --json\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// summaryTier writes the forks off their pin (at most topN lines), or why
// none can be told.
func (r *Report) summaryTier(p func(string, ...any)) {
	if r.NoPin {
		p("tier: no pin known (no --plugin, no installed plugin, no user skill declaring model:), so no turn can be called off its pin\n")
		return
	}
	var off []TierRow
	for _, t := range r.Tier {
		if t.LastOffPin != "" {
			off = append(off, t)
		}
	}
	if len(off) == 0 {
		p("tier: every fork skill with a known pin ran on it\n")
		return
	}
	p("tier: %d (skill, model) pairs off the pin\n", len(off))
	for i, t := range off {
		if i == topN {
			p("  … --detail lists all\n")
			break
		}
		p("  %s on %s, pinned %s (from %s): %d turns, %s to %s\n", t.Skill, t.Model, t.Pin, t.PinFrom, t.Turns, t.FirstTurn, t.LastTurn)
	}
}

// line is the nonzero skip counts, or "".
func (s *Skipped) line() string {
	var out []string
	for _, c := range []struct {
		n    int
		what string
	}{{s.Overlong, "overlong"}, {s.InvalidJSON, "invalid JSON"}, {s.InvalidUTF8, "invalid UTF-8"},
		{s.Untrusted, "untrusted"}, {s.Unreadable, "unreadable"}, {s.NegativeCounts, "negative counts"},
		{s.FractionalCounts, "fractional counts"}, {s.AbsurdCounts, "absurd counts"}, {s.InvalidCounts, "invalid counts"},
		{len(s.UnknownTypes) + s.OtherTypes, "unknown row types"}} {
		if c.n > 0 {
			out = append(out, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	return strings.Join(out, ", ")
}
