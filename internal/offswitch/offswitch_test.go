package offswitch

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/config"
)

// env reads the switches from a map of variables, as the commands do.
func env(m map[string]string) config.Switches {
	return config.SwitchesFrom(func(k string) string { return m[k] })
}

func TestReleasedBy(t *testing.T) {
	const opt, plain = "CLAUDE_PLUGIN_OPTION_ENABLE_FRONTMATTER_CHECK", "PROCEDURES_ENABLE_FRONTMATTER_CHECK"
	for _, tc := range []struct {
		opt, plain, want string
	}{
		{"", "", ""},               // unset or empty leaves it on
		{"", "false", plain},       // false in any ASCII case, or 0, switches it off
		{"", "FALSE", plain},       // false in any ASCII case, or 0, switches it off
		{"", "False", plain},       // false in any ASCII case, or 0, switches it off
		{"", "0", plain},           // false in any ASCII case, or 0, switches it off
		{"true", "", ""},           // true, TRUE, 1 keep it on
		{"TRUE", "1", ""},          // true, TRUE, 1 keep it on
		{"no", "off", ""},          // an unrecognised value leaves it on
		{"disabled", "FALSEY", ""}, // an unrecognised value leaves it on
		{"", " false", ""},         // no trimming
		{"", "fal\u017fe", ""},     // ASCII case only: U+017F (long s) folds to s in Unicode, not in bash
		{"", "false\n", ""},        // exactly false
		{"true", "false", plain},   // the plain variable switches off under an "on" option
		{"false", "true", opt},     // either channel saying false switches it off (the option is named)
		{"0", "false", opt},        // both off names the option
	} {
		got := ReleasedBy(FrontmatterCheck, env(map[string]string{opt: tc.opt, plain: tc.plain}))
		if got != tc.want {
			t.Errorf("opt=%q plain=%q: got %q, want %q", tc.opt, tc.plain, got, tc.want)
		}
	}
	// One gate's switch leaves the others on.
	e := env(map[string]string{"PROCEDURES_ENABLE_HOW_DO_I_GATE": "false"})
	if ReleasedBy(AmIDoneGate, e) != "" || ReleasedBy(FrontmatterCheck, e) != "" || ReleasedBy(HowDoIGate, e) == "" {
		t.Error("a switch leaked into another gate")
	}
}

func TestEnabledOrLogReleaseLogsEachRelease(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "escape.jsonl")
	e := env(map[string]string{"PROCEDURES_ENABLE_FRONTMATTER_CHECK": "false"})
	now := time.Date(2026, 8, 10, 1, 2, 3, 0, time.FixedZone("X", 3600))
	for range 2 { // each release is logged
		if EnabledOrLogRelease(FrontmatterCheck, e, log, now) {
			t.Fatal("switched-off gate reported enabled")
		}
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	row := `{"ts":"2026-08-10T00:02:03Z","gate":"FRONTMATTER_CHECK","released_by":"PROCEDURES_ENABLE_FRONTMATTER_CHECK"}` + "\n"
	if string(b) != row+row {
		t.Errorf("log = %q", b)
	}
	// On: nothing written.
	if !EnabledOrLogRelease(FrontmatterCheck, env(nil), filepath.Join(dir, "on.jsonl"), now) {
		t.Fatal("gate off with no switch")
	}
	if _, err := os.Stat(filepath.Join(dir, "on.jsonl")); err == nil {
		t.Error("an armed gate wrote an escape record")
	}
}

func TestRecordSanitisesAndNeverCreatesParent(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "l.jsonl")
	if err := Record(log, `K","x":"y`, "V\nW", time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(log)
	if want := `{"ts":"1970-01-01T00:00:00Z","gate":"K___x_:_y","released_by":"V_W"}` + "\n"; string(b) != want {
		t.Errorf("got %q, want %q", b, want)
	}
	if err := Record(filepath.Join(dir, "no", "l.jsonl"), "K", "V", time.Unix(0, 0)); err == nil {
		t.Error("Record created a missing parent directory")
	}
}

// Many hooks release at once: every record lands whole, on its own line
// (one O_APPEND write each, no read-modify-write).
func TestRecordConcurrentAppends(t *testing.T) {
	log := filepath.Join(t.TempDir(), "escape.jsonl")
	const n = 64
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			key := []string{HowDoIGate, AmIDoneGate, FrontmatterCheck}[i%3]
			if err := Record(log, key, "PROCEDURES_ENABLE_"+key, time.Unix(0, 0)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != n {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), n, b)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, `{"ts":"1970-01-01T00:00:00Z","gate":"`) || !strings.HasSuffix(l, `"}`) {
			t.Errorf("torn or malformed record %q", l)
		}
	}
}

// The exported keys are the wiring table's, spelled as the escape log and
// the variables name them.
func TestKeysFromTheWiringTable(t *testing.T) {
	for _, k := range [][2]string{{HowDoIGate, "HOW_DO_I_GATE"}, {AmIDoneGate, "AM_I_DONE_GATE"}, {FrontmatterCheck, "FRONTMATTER_CHECK"}} {
		if got, want := k[0], k[1]; got != want {
			t.Errorf("key %q, want %q", got, want)
		}
	}
}
