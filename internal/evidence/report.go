package evidence

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// Report is the sweep's answer; its JSON form is the contract of
// `procedures evidence --json` (docs/evidence.md).
type Report struct {
	Files     int       `json:"files"`
	Lines     int64     `json:"lines"` // lines decoded (the rest were passed over by type)
	Bytes     int64     `json:"bytes"`
	Sessions  int       `json:"sessions"`
	Forks     int       `json:"forks"`
	Tier      []TierRow `json:"tier"`
	Cost      []CostRow `json:"cost"`
	Retrieval Retrieval `json:"retrieval"`
	Warm      Warm      `json:"warm"`
	Gates     Gates     `json:"gates"`
	Skipped   Skipped   `json:"skipped"`

	// Money and time: the whole sweep's tokens and dollars, the same per
	// day, week, month, session, skill and model (Views), the models the
	// price table does not name, and the table's date. Saturated is true
	// when a token sum reached the largest int64 and stopped there.
	Totals     UsageRow              `json:"totals"`
	Views      map[string][]UsageRow `json:"views"`
	Unpriced   []Unpriced            `json:"unpriced_models"`
	PricesDate string                `json:"prices_date"`
	Saturated  bool                  `json:"saturated"`
	// NoPin is true when no fork skill's pin is known (no --plugin, no
	// installed plugin, no declared model:).
	NoPin bool `json:"no_pin"`
	// memoJSON, for a report that is the cache's memo, is the JSON it was
	// kept as: what WriteJSON writes.
	memoJSON []byte
}

// A TierRow is the assistant turns of one scope on one model.
type TierRow struct {
	Skill       string `json:"skill"` // plugin:skill, or "main"
	Model       string `json:"model"`
	Turns       int    `json:"turns"`
	Invocations int    `json:"invocations"`            // forks of the skill (sessions for main)
	Pin         string `json:"pin,omitempty"`          // the model the skill's SKILL.md pins
	LastOffPin  string `json:"last_off_pin,omitempty"` // the last turn on this model when it is not the pin
	PinFrom     string `json:"pin_from,omitempty"`     // where the pin was read: plugin, installed, skill
	FirstTurn   string `json:"first_turn,omitempty"`   // the first and last turn of the skill on this model
	LastTurn    string `json:"last_turn,omitempty"`

	lastOff     time.Time
	first, last int64
}

// A CostRow is one scope's tokens in one era.
type CostRow struct {
	Scope         string             `json:"scope"`
	Era           string             `json:"era"` // all, or before/after --split-at
	Input         int64              `json:"input"`
	CacheCreation int64              `json:"cache_creation"`
	CacheRead     int64              `json:"cache_read"`
	Output        int64              `json:"output"`
	Weighted      float64            `json:"weighted"`
	Turns         int                `json:"turns"`
	Invocations   int                `json:"invocations"`
	PerTurn       float64            `json:"weighted_per_turn"`
	Models        map[string]float64 `json:"models"` // share of the weighted units per model
}

// Retrieval is the how-do-i forks' retrieval compliance.
type Retrieval struct {
	Forks        int         `json:"forks"`
	Compliant    int         `json:"compliant"` // ran query-records, no other retrieval, nothing unexpanded, at most one --cat batch
	Unexpanded   int         `json:"unexpanded"`
	QueryRecords int         `json:"query_records"` // Bash calls running query-records
	SingleCat    int         `json:"single_cat"`    // forks that read their selection with one --cat batch
	RecallFirst  int         `json:"recall_first"`  // forks whose first retrieval call was --recall (or --search)
	Violations   []Violation `json:"violations"`
	NoQuery      int         `json:"no_query"` // ran no query-records and broke no rule: its own category, not compliant
}

// A Violation is one command of a fork that broke the retrieval rules.
type Violation struct {
	Session string `json:"session"`
	Fork    string `json:"fork"`
	Kind    string `json:"kind"` // other-retrieval or unexpanded
	Command string `json:"command"`
}

// Warm is the warm-start section.
type Warm struct {
	Sessions           int       `json:"sessions"` // sessions with two or more how-do-i forks
	Forks              int       `json:"forks"`
	DigestReads        int       `json:"digest_reads"`         // forks that ran session-digest-read
	WarmReads          int       `json:"warm_reads"`           // later forks whose read returned a prior digest
	DigestsWritten     int       `json:"digests_written"`      // forks whose result carried a digest to store
	TypedWithoutDigest int       `json:"typed_without_digest"` // user-typed /how-do-i: no PostToolUse, no digest
	Overlap            []Overlap `json:"overlap"`
}

// An Overlap compares the --cat paths of two consecutive how-do-i forks
// of a session. Jaccard is null when neither read any.
type Overlap struct {
	Session      string   `json:"session"`
	Earlier      string   `json:"earlier"`
	Later        string   `json:"later"`
	EarlierPaths int      `json:"earlier_paths"`
	LaterPaths   int      `json:"later_paths"`
	Shared       int      `json:"shared"`
	Jaccard      *float64 `json:"jaccard"`
}

// Gates is the gate activity the transcripts show.
type Gates struct {
	Denials    int `json:"denials"`     // how-do-i-gate denials that reached the model
	StopBlocks int `json:"stop_blocks"` // am-i-done-gate Stop blocks
	Releases   int `json:"releases"`    // Stops let through after a block
	// FailOpen counts the fail-open log's records of the swept sessions;
	// FailOpenOther those of sessions not swept.
	FailOpen      int           `json:"failopen"`
	FailOpenOther int           `json:"failopen_other_sessions"`
	Sessions      []GateSession `json:"sessions"`
}

// A GateSession is one session's gate activity.
type GateSession struct {
	Session    string `json:"session"`
	Denials    int    `json:"denials"`
	StopBlocks int    `json:"stop_blocks"`
	Releases   int    `json:"releases"`
	FailOpen   int    `json:"failopen"`
}

// maxUnknown bounds the distinct unknown row types kept by name.
const maxUnknown = 64

// Skipped counts what the sweep could not use, by reason.
type Skipped struct {
	Overlong    int `json:"overlong"`     // lines over MaxLine
	InvalidJSON int `json:"invalid_json"` // decoded lines that are not a JSON object
	InvalidUTF8 int `json:"invalid_utf8"`
	Untrusted   int `json:"untrusted"`  // files or directories another user could write
	Unreadable  int `json:"unreadable"` // files that could not be opened or read
	// FailOpenUnparseable: fail-open log lines that are not records, or
	// of gatelog.MaxLine bytes or more.
	FailOpenUnparseable int `json:"failopen_unparseable"`
	// Usage rows whose counts cannot be summed, skipped whole: a negative
	// count, a fractional one (1.5, 1e3), one above MaxCount, or one that
	// is not a number (a string, null), or an unknown speed.
	NegativeCounts   int            `json:"negative_counts"`
	FractionalCounts int            `json:"fractional_counts"`
	AbsurdCounts     int            `json:"absurd_counts"`
	InvalidCounts    int            `json:"invalid_counts"`
	UnknownTypes     map[string]int `json:"unknown_types"`
	OtherTypes       int            `json:"other_unknown_types"` // beyond maxUnknown names
}

func (s *Skipped) unknown(t []byte) {
	if knownType(string(t)) {
		return
	}
	if s.UnknownTypes == nil {
		s.UnknownTypes = map[string]int{}
	}
	if _, ok := s.UnknownTypes[string(t)]; !ok && len(s.UnknownTypes) >= maxUnknown {
		s.OtherTypes++
		return
	}
	s.UnknownTypes[string(t)]++
}

func (s *Skipped) add(o *Skipped) {
	s.Overlong += o.Overlong
	s.InvalidJSON += o.InvalidJSON
	s.InvalidUTF8 += o.InvalidUTF8
	s.Untrusted += o.Untrusted
	s.Unreadable += o.Unreadable
	s.FailOpenUnparseable += o.FailOpenUnparseable
	s.NegativeCounts += o.NegativeCounts
	s.FractionalCounts += o.FractionalCounts
	s.AbsurdCounts += o.AbsurdCounts
	s.InvalidCounts += o.InvalidCounts
	s.OtherTypes += o.OtherTypes
	for k, n := range o.UnknownTypes {
		switch _, ok := s.UnknownTypes[k]; {
		case knownType(k):
		case !ok && len(s.UnknownTypes) >= maxUnknown:
			s.OtherTypes += n
		default:
			if s.UnknownTypes == nil {
				s.UnknownTypes = map[string]int{}
			}
			s.UnknownTypes[k] += n
		}
	}
}

func newReport() *Report {
	return &Report{Tier: []TierRow{}, Cost: []CostRow{},
		Retrieval: Retrieval{Violations: []Violation{}},
		Warm:      Warm{Overlap: []Overlap{}}, Gates: Gates{Sessions: []GateSession{}},
		Skipped: Skipped{UnknownTypes: map[string]int{}}}
}

// WriteJSON writes the report as one indented JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	b := r.memoJSON
	if b == nil {
		var err error
		if b, err = r.indented(); err != nil {
			return err
		}
	}
	_, err := w.Write(b)
	return err
}

// indented is the report as WriteJSON writes it.
func (r *Report) indented() ([]byte, error) {
	b, err := json.MarshalIndent(r, "", "  ")
	return append(b, '\n'), err
}

// WriteText writes the report as tables, one section each (--detail).
func (r *Report) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format, a...) }
	p("evidence: %d files, %d sessions, %d forks\n\n", r.Files, r.Sessions, r.Forks)
	p("1. Tier\nskill\tmodel\tturns\tinvocations\tpin\tlast turn off the pin\tfirst turn\tlast turn\n")
	for _, t := range r.Tier {
		p("%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\n", t.Skill, t.Model, t.Turns, t.Invocations, dash(t.Pin), dash(t.LastOffPin),
			dash(t.FirstTurn), dash(t.LastTurn))
	}
	if r.NoPin {
		p("  no pin known (no --plugin, no installed plugin, no user skill declaring model:): no turn can be called off its pin\n")
	}
	p("\n2. Cost\nscope\tera\tinput\tcache_creation\tcache_read\toutput\tweighted\tturns\tinvocations\tper turn\tmodels\n")
	for _, c := range r.Cost {
		var ms []string
		for m, s := range c.Models {
			ms = append(ms, fmt.Sprintf("%s %.0f%%", m, 100*s))
		}
		slices.Sort(ms)
		p("%s\t%s\t%d\t%d\t%d\t%d\t%.1f\t%d\t%d\t%.1f\t%s\n", c.Scope, c.Era, c.Input, c.CacheCreation,
			c.CacheRead, c.Output, c.Weighted, c.Turns, c.Invocations, c.PerTurn, dash(strings.Join(ms, ", ")))
	}
	rt := r.Retrieval
	p("\n3. Retrieval (how-do-i forks)\nforks\tcompliant\tquery-records calls\tone --cat batch\tunexpanded\tno query\n%d\t%d\t%d\t%d\t%d\t%d\n",
		rt.Forks, rt.Compliant, rt.QueryRecords, rt.SingleCat, rt.Unexpanded, rt.NoQuery)
	p("  compliant: ran query-records, searched no store another way, left no ${CLAUDE_…} unexpanded, read with at most one --cat batch; no query: ran none and broke no rule\n")
	for _, v := range rt.Violations {
		p("  %s %s %s: %s\n", v.Session, v.Fork, v.Kind, oneLine(v.Command))
	}
	wm := r.Warm
	p("\n4. Warm starts\nsessions (>=2 forks)\tforks\tdigest reads\twarm reads\tdigests written\ttyped /how-do-i (no digest)\n%d\t%d\t%d\t%d\t%d\t%d\n",
		wm.Sessions, wm.Forks, wm.DigestReads, wm.WarmReads, wm.DigestsWritten, wm.TypedWithoutDigest)
	for _, o := range wm.Overlap {
		j := "-"
		if o.Jaccard != nil {
			j = fmt.Sprintf("%.2f", *o.Jaccard)
		}
		p("  %s %s -> %s: --cat paths %d/%d, shared %d, jaccard %s\n", o.Session, o.Earlier, o.Later, o.EarlierPaths, o.LaterPaths, o.Shared, j)
	}
	g := r.Gates
	p("\n5. Gates\nsession\tdenials\tstop blocks\treleases\tfail-open\n")
	for _, s := range g.Sessions {
		p("%s\t%d\t%d\t%d\t%d\n", s.Session, s.Denials, s.StopBlocks, s.Releases, s.FailOpen)
	}
	p("total\t%d\t%d\t%d\t%d\n", g.Denials, g.StopBlocks, g.Releases, g.FailOpen)
	if g.FailOpenOther > 0 {
		p("  fail-open records of sessions not swept: %d\n", g.FailOpenOther)
	}
	s := r.Skipped
	p("\nskipped: %d overlong, %d invalid JSON, %d invalid UTF-8, %d untrusted, %d unreadable, %d unknown row types\n",
		s.Overlong, s.InvalidJSON, s.InvalidUTF8, s.Untrusted, s.Unreadable, len(s.UnknownTypes)+s.OtherTypes)
	return tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", `\n`) }

func statSize(p string) (int64, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}
