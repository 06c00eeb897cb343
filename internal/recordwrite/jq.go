package recordwrite

import (
	"strconv"

	"github.com/procedures-go/procedures/internal/jqtext"
)

// A Mistake is one row of mistakes.jsonl. Every field is a string;
// ScenarioMatched "null" is written as JSON null.
type Mistake struct {
	TS, Project, Session, Category, Trigger, Description, Correction, Skill, Severity string
	ScenarioMatched                                                                   string
	Pattern, Face, RecurrenceOf                                                       string // written only when not empty
}

// Row renders m as the one compact JSON line (LF included) that jq -c
// writes: keys in the documented order, pattern, face and recurrence_of
// only when not empty.
func (m Mistake) Row() []byte {
	b := make([]byte, 0, 256)
	add := func(k, v string) {
		if len(b) == 0 {
			b = append(b, '{')
		} else {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, k) // keys are plain ASCII
		b = append(b, ':')
		b = jqtext.AppendString(b, v)
	}
	add("ts", m.TS)
	add("project", m.Project)
	add("session", m.Session)
	add("category", m.Category)
	add("trigger", m.Trigger)
	add("description", m.Description)
	add("correction", m.Correction)
	add("skill", m.Skill)
	add("severity", m.Severity)
	if m.ScenarioMatched == "null" {
		b = append(b, `,"scenario_matched":null`...)
	} else {
		add("scenario_matched", m.ScenarioMatched)
	}
	for _, kv := range [][2]string{{"pattern", m.Pattern}, {"face", m.Face}, {"recurrence_of", m.RecurrenceOf}} {
		if kv[1] != "" {
			add(kv[0], kv[1])
		}
	}
	return append(b, '}', '\n')
}
