package oracle

import (
	"strings"
	"testing"
	"time"
)

// Each kind of change outside the files is reported; nothing else is.
func TestHostChanges(t *testing.T) {
	base := hostState{connections: 3, queries: 1, listening: 7, node: "sb", domain: "(none)", skew: 10 * time.Millisecond}
	if got := hostChanges(base, base); len(got) != 0 {
		t.Errorf("no change reported as %v", got)
	}
	small := base
	small.skew += 500 * time.Millisecond
	if got := hostChanges(base, small); len(got) != 0 {
		t.Errorf("a clock jitter reported as %v", got)
	}
	for name, after := range map[string]hostState{
		"connections": {connections: 4, queries: 1, listening: 7, node: "sb", domain: "(none)", skew: base.skew},
		"DNS":         {connections: 3, queries: 2, listening: 7, node: "sb", domain: "(none)", skew: base.skew},
		"listening":   {connections: 3, queries: 1, listening: 8, node: "sb", domain: "(none)", skew: base.skew},
		"host name":   {connections: 3, queries: 1, listening: 7, node: "x", domain: "(none)", skew: base.skew},
		"domain":      {connections: 3, queries: 1, listening: 7, node: "sb", domain: "nis", skew: base.skew},
		"clock":       {connections: 3, queries: 1, listening: 7, node: "sb", domain: "(none)", skew: base.skew - time.Hour},
	} {
		got := hostChanges(base, after)
		if len(got) != 1 || !strings.Contains(got[0], strings.Fields(name)[0]) {
			t.Errorf("%s: %v", name, got)
		}
	}
}
