package doctor

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Status grades a finding.
type Status string

// The statuses, from good to bad. Only Fail makes the doctor exit 1.
const (
	OK   Status = "ok"
	Warn Status = "warn"
	Fail Status = "fail"
)

// The sections, in report order.
const (
	SectionWiring   = "Wiring"
	SectionSwitches = "Switches"
	SectionFailOpen = "Fail-open log"
	SectionStores   = "Stores"
)

// Sections lists the sections in report order.
var Sections = []string{SectionWiring, SectionSwitches, SectionFailOpen, SectionStores}

// A Finding is one line of the report: what was looked at (Subject), how it
// stands, why (Reason, one line) and, unless it is ok, what to do (Fix).
// Data carries the numbers behind Reason for machine readers (JSON only).
type Finding struct {
	Section string         `json:"section"`
	Status  Status         `json:"status"`
	Subject string         `json:"subject"`
	Reason  string         `json:"reason"`
	Fix     string         `json:"fix,omitempty"`
	Data    map[string]any `json:"data,omitempty"`
}

// A Report is every finding of one run, in section order.
type Report struct {
	Version  string    `json:"version"`
	Plugin   string    `json:"plugin"`
	Since    string    `json:"since"`
	Findings []Finding `json:"findings"`

	// Installs are the copies of the plugin Claude Code recorded, checked
	// with no --plugin (Install.Label each).
	Installs []string `json:"installed,omitempty"`

	// GateActivity: fail-open or escape rows in the window; the text then
	// points at procedures evidence.
	GateActivity bool `json:"gate_activity"`

	prefix string // leads each added finding's subject (the copy checked)
}

// Count returns how many findings have status s.
func (r *Report) Count(s Status) int {
	n := 0
	for _, f := range r.Findings {
		if f.Status == s {
			n++
		}
	}
	return n
}

// Failed reports whether any finding is a Fail.
func (r *Report) Failed() bool { return r.Count(Fail) > 0 }

func (r *Report) add(f Finding) {
	f.Subject = r.prefix + f.Subject
	r.Findings = append(r.Findings, f)
}

// WriteText renders r for a person: a header, the findings under their
// section headings, each as "<status> <subject>: <reason>" plus a "fix:"
// line, and a closing tally.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "procedures doctor %s\n", r.Version)
	plugin := r.Plugin
	if plugin == "" {
		plugin = "(none)"
	}
	fmt.Fprintf(&b, "plugin: %s\n", plugin)
	for _, in := range r.Installs {
		fmt.Fprintf(&b, "installed: %s\n", in)
	}
	fmt.Fprintf(&b, "window: %s\n", r.Since)
	// Identical findings are printed once, where the first stands, with
	// their count.
	type key struct{ section, status, subject, reason, fix string }
	count := map[key]int{}
	for _, f := range r.Findings {
		count[key{f.Section, string(f.Status), f.Subject, f.Reason, f.Fix}]++
	}
	for _, sec := range Sections {
		first := true
		for _, f := range r.Findings {
			k := key{f.Section, string(f.Status), f.Subject, f.Reason, f.Fix}
			if f.Section != sec || count[k] == 0 {
				continue
			}
			if first {
				fmt.Fprintf(&b, "\n%s\n", sec)
				first = false
			}
			times := ""
			if n := count[k]; n > 1 {
				times = fmt.Sprintf(" (%d times)", n)
			}
			count[k] = 0
			fmt.Fprintf(&b, "  %-4s  %s: %s%s\n", strings.ToUpper(string(f.Status)), f.Subject, f.Reason, times)
			if f.Fix != "" {
				fmt.Fprintf(&b, "        fix: %s\n", f.Fix)
			}
		}
	}
	if r.GateActivity {
		b.WriteString("\ngate activity per session, from the transcripts: procedures evidence\n")
	}
	fmt.Fprintf(&b, "\n%d fail, %d warn, %d ok\n", r.Count(Fail), r.Count(Warn), r.Count(OK))
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON renders r as one indented JSON document.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		*Report
		Summary map[Status]int `json:"summary"`
	}{r, map[Status]int{OK: r.Count(OK), Warn: r.Count(Warn), Fail: r.Count(Fail)}})
}
