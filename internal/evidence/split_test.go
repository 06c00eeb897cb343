package evidence

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A main transcript read in parts, split at line boundaries, gives the
// report a read in one piece gives: turns streamed across a boundary,
// Stop blocks released in the next part, the first session id and
// timestamp, Skill results spawning forks; with and without the cache.
func TestSplitRead(t *testing.T) {
	root, projects := nestedCopy(t)
	genCorpus(t, projects, 3, 8, 512)
	genMoneyCorpus(t, projects)
	// Stops alternating blocked and released, one per line, so that most
	// boundaries fall between a block and its release.
	var b strings.Builder
	for i := range 200 {
		errs := "[]"
		if i%2 == 0 {
			errs = `["AM-I-DONE: review"]`
		}
		b.WriteString(`{"type":"system","subtype":"stop_hook_summary","sessionId":"stops","timestamp":"2026-06-0` + string(rune('1'+i%9)) + `T00:00:00Z","hookErrors":` + errs + "}\n")
		// Two rows of one turn with the same sum on different days: the
		// earlier row counts, wherever the boundary falls.
		for _, day := range []string{"1", "2"} {
			b.WriteString(`{"type":"assistant","sessionId":"stops","requestId":"tie` + itoa(i) + `","timestamp":"2026-07-0` + day +
				`T00:00:00Z","message":{"id":"tie` + itoa(i) + `","model":"claude-haiku-4-5","usage":{"input_tokens":` + day + `0,"output_tokens":` + map[string]string{"1": "20", "2": "10"}[day] + `}}}` + "\n")
		}
	}
	write(t, filepath.Join(projects, "-stops", "stops.jsonl"), b.String())
	o := Options{Projects: projects, Location: time.UTC}
	whole := jsonOf(t, sweep(t, o))
	oldAt, oldMax := SplitAt, splitMax
	t.Cleanup(func() { SplitAt, splitMax = oldAt, oldMax })
	for _, c := range []struct {
		at    int64
		parts int
	}{{4 << 10, 2}, {1 << 10, 7}, {64, 64}} {
		SplitAt, splitMax = c.at, c.parts
		if got := jsonOf(t, sweep(t, o)); got != whole {
			t.Fatalf("split at %d in up to %d parts: the report differs\n%s\nwant:\n%s", c.at, c.parts, got, whole)
		}
		oc := o
		oc.CacheDir = filepath.Join(root, "cache")
		if got := jsonOf(t, sweep(t, oc)); got != whole {
			t.Fatalf("split, cached: the report differs")
		}
	}
}

// jsonOf is the report as --json prints it, then as the summary, every
// view and --detail print it.
func jsonOf(t *testing.T, r *Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteSummary(&b, true); err != nil {
		t.Fatal(err)
	}
	for _, v := range Views {
		if err := r.WriteView(&b, v, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
