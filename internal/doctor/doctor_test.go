package doctor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/bundle"
	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/turnstate"
	"github.com/procedures-go/procedures/internal/wiring"
)

func TestHealthy(t *testing.T) {
	w := newWorld(t)
	r := Run(w.options())
	if r.Failed() || r.Count(Warn) > 0 {
		t.Errorf("a healthy install is not all ok:\n%s", dump(t, r))
	}
	for _, sec := range Sections {
		if len(findings(r, sec, "")) == 0 {
			t.Errorf("section %s has no finding", sec)
		}
	}
}

// A missing skill is a fail naming the release it causes, for each gate.
func TestSkillUnresolvable(t *testing.T) {
	for _, skill := range []string{"how-do-i", "am-i-done"} {
		w := newWorld(t)
		if err := os.RemoveAll(filepath.Join(w.plugin, "skills", skill)); err != nil {
			t.Fatal(err)
		}
		r := Run(w.options())
		fs := findings(r, SectionWiring, skill+"-gate skill")
		if len(fs) != 1 || fs[0].Status != Fail || !strings.Contains(fs[0].Reason, "skill-unresolvable") {
			t.Errorf("%s removed:\n%s", skill, dump(t, r))
		}
		if r.Count(Fail) != 1 {
			t.Errorf("%s removed: %d fails, want 1:\n%s", skill, r.Count(Fail), dump(t, r))
		}
	}
}

// The skill is looked up from the launcher's directory as spelled, with
// ".." resolved by the kernel: a bin directory that is a symlink into
// another tree finds the skills of that tree, as the gates would.
func TestSkillThroughSymlinkedBin(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks")
	}
	w := newWorld(t)
	other := makeBundle(t, filepath.Join(w.root, "other"))
	if err := os.RemoveAll(filepath.Join(w.plugin, "bin")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(other, "bin"), filepath.Join(w.plugin, "bin")); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(other, "skills", "am-i-done")); err != nil {
		t.Fatal(err)
	}
	r := Run(w.options())
	if fs := findings(r, SectionWiring, "am-i-done-gate skill"); len(fs) != 1 || fs[0].Status != Fail {
		t.Errorf("skill resolved lexically, not through the symlink:\n%s", dump(t, r))
	}
	if fs := findings(r, SectionWiring, "how-do-i-gate skill"); len(fs) != 1 || fs[0].Status != OK {
		t.Errorf("how-do-i:\n%s", dump(t, r))
	}
}

func TestWiringMismatch(t *testing.T) {
	w := newWorld(t)
	hooks := filepath.Join(w.plugin, "hooks", "hooks.json")
	data, _ := os.ReadFile(hooks)
	data = bytes.Replace(data, []byte("Write|Edit|MultiEdit"), []byte("Write|Edit"), 1)
	data = bytes.Replace(data, []byte(`procedures\" am-i-done-gate`), []byte(`procedures\" am-i-done-gate --x`), 1)
	writeFile(t, w.plugin, "hooks/hooks.json", string(data), 0o644)
	r := Run(w.options())
	ef := findings(r, SectionWiring, "enforce-frontmatter")
	if len(ef) != 1 || ef[0].Status != Fail || !strings.Contains(ef[0].Reason, "PostToolUse[Write|Edit]") {
		t.Errorf("matcher drift:\n%s", dump(t, r))
	}
	if fs := findings(r, SectionWiring, "PostToolUse[Write|Edit]"); len(fs) != 1 || fs[0].Status != Warn {
		t.Errorf("extra entry:\n%s", dump(t, r))
	}
	if fs := findings(r, SectionWiring, "Stop"); len(fs) != 1 || fs[0].Status != Fail {
		t.Errorf("bad command:\n%s", dump(t, r))
	}

	writeFile(t, w.plugin, "hooks/hooks.json", "{", 0o644)
	r = Run(w.options())
	if fs := findings(r, SectionWiring, "hooks.json"); len(fs) != 1 || fs[0].Status != Fail {
		t.Errorf("unparseable hooks.json:\n%s", dump(t, r))
	}
}

func TestNoBinaryForThisPlatform(t *testing.T) {
	w := newWorld(t)
	h := bundle.Host()
	if err := os.RemoveAll(filepath.Join(w.plugin, "bin", h.String())); err != nil {
		t.Fatal(err)
	}
	r := Run(w.options())
	// One finding for the one missing file, naming it and every hook it
	// disarms: identical failures are not printed six times.
	var fails []Finding
	for _, f := range r.Findings {
		if f.Status == Fail {
			fails = append(fails, f)
		}
	}
	if len(fails) != 1 || !strings.Contains(fails[0].Reason, h.String()) || fails[0].Subject != "bin/"+h.String()+"/"+h.Exe() {
		t.Fatalf("%s", dump(t, r))
	}
	for _, hk := range wiring.Hooks() {
		if !strings.Contains(fails[0].Reason, hk.Command) {
			t.Errorf("the finding does not name %s: %s", hk.Command, fails[0].Reason)
		}
	}
}

func TestLostExecBitIsAWarning(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no exec bits")
	}
	w := newWorld(t)
	h := bundle.Host()
	os.Chmod(filepath.Join(w.plugin, "bin", h.String(), h.Exe()), 0o644)
	r := Run(w.options())
	// One cause, one finding: the six hooks run the binary, which is
	// reported once, and each hook points at it.
	if n := r.Count(Warn); n != 1 {
		t.Errorf("%d warnings, want 1:\n%s", n, dump(t, r))
	}
	exe := "bin/" + h.String() + "/" + h.Exe()
	fs := findings(r, SectionWiring, exe)
	if len(fs) != 1 || fs[0].Status != Warn || !strings.Contains(fs[0].Reason, "lost its exec bit") ||
		!strings.Contains(fs[0].Reason, "(hooks: turn-state-reset, how-do-i-gate,") || !strings.HasPrefix(fs[0].Fix, "chmod +x ") {
		t.Errorf("%s", dump(t, r))
	}
	if fs := findings(r, SectionWiring, "digest-record"); len(fs) != 1 || fs[0].Status != OK || !strings.Contains(fs[0].Reason, "see the warning on "+exe) {
		t.Errorf("%s", dump(t, r))
	}
}

func TestParseHookCommand(t *testing.T) {
	for _, c := range []struct {
		in, shell, prog, args string
		ok                    bool
	}{
		{`sh "${CLAUDE_PLUGIN_ROOT}/bin/procedures" digest-record`, "sh", "/p q/bin/procedures", "digest-record", true},
		{`"$CLAUDE_PLUGIN_ROOT/bin/procedures" x`, "", "/p q/bin/procedures", "x", true},
		{`'${CLAUDE_PLUGIN_ROOT}'/x y`, "", "${CLAUDE_PLUGIN_ROOT}/x", "y", true},
		{`/bin/bash  a   b`, "/bin/bash", "a", "b", true},
		{`sh "$CLAUDE_PLUGIN_ROOT/{x}*" a`, "sh", "/p q/{x}*", "a", true}, // literal inside double quotes
		{`sh $CLAUDE_PLUGIN_ROOT/x*`, "", "", "", false},                  // a glob
		{`sh "a\"b"`, "", "", "", false},                                  // an escape
		{`sh ${CLAUDE_PLUGIN_ROOT:-/x}/y`, "", "", "", false},             // an operator
		{`sh "$(id)"`, "", "", "", false},                                 // a substitution
		{`X=1 sh a`, "", "", "", false},                                   // an assignment
		{`sh a > b`, "", "", "", false},                                   // a redirection
		{`sh "$HOME/x" y`, "", "", "", false},
		{`sh x; rm -rf /`, "", "", "", false},
		{`sh "x`, "", "", "", false},
		{"sh \"a\x00b\"", "", "", "", false}, // a NUL byte, which the parser drops
		{"sh a\x00", "", "", "", false},
		{`sh`, "", "", "", false},
		{``, "", "", "", false},
		// The bundle's own form: the hook's shell sources the launcher.
		{`set -- "${CLAUDE_PLUGIN_ROOT}/bin/procedures" digest-record; . "$1"`, ".", "/p q/bin/procedures", "digest-record", true},
		{`set -- "$CLAUDE_PLUGIN_ROOT"/bin/procedures 'a b' c;  .  "$1"`, ".", "/p q/bin/procedures", "a b,c", true},
		{`set -- sh "${CLAUDE_PLUGIN_ROOT}/bin/procedures" x; . "$1"`, ".", "sh", "/p q/bin/procedures,x", true}, // sources a file named sh
		{`set -- "$HOME/x" y; . "$1"`, "", "", "", false},                                                        // a word as refused above
		{`set --; . "$1"`, "", "", "", false},                                                                    // no script
	} {
		got, err := parseHookCommand(c.in, "/p q")
		if (err == nil) != c.ok {
			t.Errorf("%q: err %v", c.in, err)
			continue
		}
		if c.ok && (got.shell != c.shell || got.prog != c.prog || strings.Join(got.args, ",") != c.args) {
			t.Errorf("%q: %+v", c.in, got)
		}
	}
}

// Only the exact sourcing form is read as one: a changed or an added
// statement is refused as any other compound command is.
func TestParseHookCommandSourcedExactly(t *testing.T) {
	const notSimple = "is not one simple command, which the doctor does not interpret"
	const set = `set -- "${CLAUDE_PLUGIN_ROOT}/bin/procedures" x`
	for _, in := range []string{
		set + `; . "$2"`,
		set + `; . $1`,
		set + `; . "${1}"`,
		set + `; . "$1" y`,
		set + `; . "$1" >/dev/null`,
		set + `; . "$1";`,
		set + `; . "$1"; rm -rf /`,
		set + `; rm -rf /; . "$1"`,
		set + ` && . "$1"`,
		set + ` & . "$1"`,
		set + "\n. \"$1\"",
		set + `; source "$1"`,
		set + `; . "$1" &`,
		set + `; ! . "$1"`,
		`set "${CLAUDE_PLUGIN_ROOT}/bin/procedures" x; . "$1"`,
		`set -e -- "${CLAUDE_PLUGIN_ROOT}/bin/procedures" x; . "$1"`,
		`'set' -- "${CLAUDE_PLUGIN_ROOT}/bin/procedures" x; . "$1"`,
		`X=1 ` + set + `; . "$1"`,
		set + ` >/dev/null; . "$1"`,
		`! ` + set + `; . "$1"`,
		`. "$1"; ` + set,
		`sh x; rm -rf /`,
	} {
		if c, err := parseHookCommand(in, "/p"); err == nil || err.Error() != notSimple {
			t.Errorf("%q: %+v, err %v; want %q", in, c, err, notSimple)
		}
	}
}

// A bundle written before hooks.json sourced the launcher (its lines
// sh "${CLAUDE_PLUGIN_ROOT}/bin/procedures" <hook>) is as healthy as one
// written now.
func TestOldHookCommandIsHealthy(t *testing.T) {
	w := newWorld(t)
	writeFile(t, w.plugin, "hooks/hooks.json", string(wiring.HooksJSON(bundle.OldHookCommand)), 0o644)
	r := Run(w.options())
	if r.Failed() || r.Count(Warn) > 0 {
		t.Fatalf("the old command form is not all ok:\n%s", dump(t, r))
	}
	for _, h := range wiring.Hooks() {
		if fs := findings(r, SectionWiring, h.Command); len(fs) < 1 || fs[0].Subject != h.Command || !strings.Contains(fs[0].Reason, "through the launcher bin/procedures") {
			t.Errorf("%s: %v", h.Command, fs)
		}
	}
}

// A bundle whose hooks.json sources the launcher but whose launcher
// predates that line (it would fail every hook, "no binary", and the gates
// would let everything through) fails the wiring check, hook by hook; the
// old line with that launcher is healthy.
func TestSourcingLineNeedsASourceableLauncher(t *testing.T) {
	w := newWorld(t)
	text := bundle.Launcher([]bundle.Platform{bundle.Host()})
	old := strings.Replace(text, bundle.SourceableMark+"\n", "", 1)
	if old == text {
		t.Fatal("the launcher has no sourceable mark to remove")
	}
	writeFile(t, w.plugin, "bin/procedures", old, 0o755)
	r := Run(w.options())
	fs := findings(r, SectionWiring, "bin/procedures")
	if len(fs) != 1 || fs[0].Status != Fail || !strings.Contains(fs[0].Reason, "predates hooks.json's sourcing line") {
		t.Fatalf("%v", fs)
	}
	for _, h := range wiring.Hooks() {
		if !strings.Contains(fs[0].Reason, h.Command) {
			t.Errorf("%s not named: %v", h.Command, fs)
		}
	}
	writeFile(t, w.plugin, "hooks/hooks.json", string(wiring.HooksJSON(bundle.OldHookCommand)), 0o644)
	if r := Run(w.options()); r.Failed() {
		t.Errorf("the old line with that launcher is not healthy:\n%s", dump(t, r))
	}
}

func FuzzParseHookCommand(f *testing.F) {
	f.Add(`sh "${CLAUDE_PLUGIN_ROOT}/bin/procedures" digest-record`)
	f.Add(`set -- "${CLAUDE_PLUGIN_ROOT}/bin/procedures" digest-record; . "$1"`)
	f.Add(`'a b' "c'd" $CLAUDE_PLUGIN_ROOTX`)
	f.Fuzz(func(t *testing.T, in string) {
		c, err := parseHookCommand(in, "/root")
		if err == nil && strings.Contains(in, "\x00") {
			t.Fatalf("%q holds a NUL byte, yet parsed to %+v", in, c)
		}
		if err == nil && c.prog == "" && len(c.args) == 0 && c.shell == "" {
			// An empty quoted word is a word: fine. Nothing else is empty.
			if !strings.Contains(in, `""`) && !strings.Contains(in, `''`) {
				t.Fatalf("%q parsed to nothing", in)
			}
		}
	})
}

func TestDefaultPlugin(t *testing.T) {
	dir := t.TempDir()
	h := bundle.Host()
	exe := writeFile(t, dir, "p/bin/"+h.String()+"/"+h.Exe(), "x", 0o755)
	real, _ := filepath.EvalSymlinks(filepath.Join(dir, "p"))
	if got := DefaultPlugin("", exe); got != real {
		t.Errorf("from the executable: %q, want %q", got, real)
	}
	if got := DefaultPlugin(filepath.Join(dir, "p", "bin"), "/elsewhere/procedures"); got != real {
		t.Errorf("from PROCEDURES_BIN_DIR: %q, want %q", got, real)
	}
	other := writeFile(t, dir, "go/bin/procedures", "x", 0o755)
	if got := DefaultPlugin("", other); got != "" {
		t.Errorf("outside a bundle: %q", got)
	}
	r := Run(Options{Settings: settings(nil), Executable: other, Now: fixedNow})
	if fs := findings(r, SectionWiring, "plugin"); len(fs) != 1 || fs[0].Status != Warn {
		t.Errorf("%s", dump(t, r))
	}
}

func TestLogLocation(t *testing.T) {
	w := newWorld(t)
	check := func(name string, want Status) {
		t.Helper()
		r := Run(w.options())
		fs := findings(r, SectionFailOpen, "location")
		if len(fs) != 1 || fs[0].Status != want {
			t.Errorf("%s: want %s:\n%s", name, want, dump(t, r))
		}
	}
	check("existing log", OK)
	w.env["GATE_FAILOPEN_LOG"] = filepath.Join(w.root, "newdir-log", "fo.jsonl")
	os.Mkdir(filepath.Join(w.root, "newdir-log"), 0o755)
	check("missing log in a writable directory", OK)
	w.env["GATE_FAILOPEN_LOG"] = filepath.Join(w.root, "nodir", "fo.jsonl")
	check("missing directory (never created by the logger)", Fail)
	w.env["GATE_FAILOPEN_LOG"] = filepath.Join(w.plugin, "hooks", "hooks.json", "fo.jsonl")
	check("directory is a regular file (holds for root too)", Fail)
	w.env["GATE_FAILOPEN_LOG"] = w.root
	check("log is a directory", Fail)
	if runtime.GOOS != "windows" && os.Geteuid() != 0 {
		ro := filepath.Join(w.root, "ro")
		os.Mkdir(ro, 0o500)
		w.env["GATE_FAILOPEN_LOG"] = filepath.Join(ro, "fo.jsonl")
		check("read-only directory", Fail)
	}
}

// The fallback: a default turn-state directory owned by someone else.
// The default is replaced through the test seam, never the real one.
func TestTurnStateFallback(t *testing.T) {
	if runtime.GOOS == "windows" || os.Geteuid() != 0 {
		t.Skip("needs root to make a directory another user owns")
	}
	w := newWorld(t)
	def := filepath.Join(w.root, "claude-turn-state")
	os.Mkdir(def, 0o755)
	if err := os.Chown(def, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	delete(w.env, "TURN_STATE_DIR")
	o := w.options()
	o.TurnStateDefault = def
	r := Run(o)
	fs := findings(r, SectionStores, "shared-host fallback")
	if len(fs) != 1 || fs[0].Status != Warn || !strings.Contains(fs[0].Reason, "uid 65534") ||
		!strings.Contains(fs[0].Reason, def+"-0") {
		t.Errorf("%s", dump(t, r))
	}
	if fs := findings(r, SectionStores, "digest dir"); len(fs) != 1 || !strings.Contains(fs[0].Reason, def+"-0/digests") {
		t.Errorf("digest dir does not follow the fallback:\n%s", dump(t, r))
	}
}

// With no replacement default, the doctor's turn-state directory is the
// hooks' (turnstate.New), whatever state /tmp is in.
func TestTurnStateSeamAgrees(t *testing.T) {
	for _, env := range []map[string]string{nil, {"TURN_STATE_DIR": "/x"}} {
		get := func(k string) string { return env[k] }
		def, dir := turnState(config.TurnStateFrom(get), "")
		if def != turnstate.DefaultDir || dir != turnstate.New(config.TurnStateFrom(get)).Dir {
			t.Errorf("%v: %q %q", env, def, dir)
		}
	}
}

func TestDigestCounts(t *testing.T) {
	w := newWorld(t)
	d := filepath.Join(w.ts, "digests")
	old := fixedNow.Add(-5 * 24 * time.Hour)
	for _, f := range []struct {
		name, body string
		mtime      time.Time
	}{
		{"s1.digest.1.a", "x\n", fixedNow},
		{"s1.digest.2.b", "x\n", old},
		{"s1.digest.3.c", "", fixedNow},
		{"s2.digest.4.d", "x\n", fixedNow.Add(-time.Hour)},
		{"notadigest", "x", fixedNow},
	} {
		p := writeFile(t, d, f.name, f.body, 0o600)
		os.Chtimes(p, f.mtime, f.mtime)
	}
	r := Run(w.options())
	fs := findings(r, SectionStores, "digests")
	text := dump(t, r)
	if len(fs) != 3 || !strings.Contains(fs[0].Reason, "4 in 2 sessions (1 expired, 1 empty)") ||
		fs[1].Subject != "digests of s1" || !strings.Contains(fs[1].Reason, "3 (1 expired, 1 empty)") ||
		fs[2].Subject != "digests of s2" || !strings.Contains(fs[2].Reason, "1 (0 expired, 0 empty)") {
		t.Errorf("%s", text)
	}
	if fs[0].Status != Warn {
		t.Errorf("an empty digest is not flagged:\n%s", text)
	}
}

func TestForeignDigestDirFails(t *testing.T) {
	if runtime.GOOS == "windows" || os.Geteuid() != 0 {
		t.Skip("needs root to make a directory another user owns")
	}
	w := newWorld(t)
	os.Chown(filepath.Join(w.ts, "digests"), 65534, 65534)
	r := Run(w.options())
	if fs := findings(r, SectionStores, "digest dir"); len(fs) != 1 || fs[0].Status != Fail {
		t.Errorf("%s", dump(t, r))
	}
}

func TestCorpusAndLint(t *testing.T) {
	w := newWorld(t)
	writeFile(t, w.corpus, "references/decisions/bad.md", "no frontmatter\n", 0o644)
	w.env["QUERY_RECORDS_ROOT"] = filepath.Join(w.root, "missing")
	r := Run(w.options())
	text := dump(t, r)
	lint := findings(r, SectionStores, "lint-frontmatter")
	if len(lint) != 1 || lint[0].Status != Fail || !strings.Contains(lint[0].Reason, "1 errors, 0 warnings in 1 records") {
		t.Errorf("lint:\n%s", text)
	}
	roots := findings(r, SectionStores, "corpus root")
	if len(roots) != 2 || roots[0].Status != Warn || !strings.Contains(roots[0].Reason, "query-records ($QUERY_RECORDS_ROOT)") ||
		roots[1].Status != OK || !strings.Contains(roots[1].Reason, "lint-frontmatter ($CODEX_ROOT), enforce-frontmatter ($CODEX_ROOT), log-record ($CODEX_ROOT)") {
		t.Errorf("roots:\n%s", text)
	}
}

func TestSwitches(t *testing.T) {
	w := newWorld(t)
	w.env["PROCEDURES_ENABLE_HOW_DO_I_GATE"] = "FALSE"
	w.env["CLAUDE_PLUGIN_OPTION_ENABLE_AM_I_DONE_GATE"] = "0"
	w.env["PROCEDURES_ENABLE_FRONTMATTER_CHECK"] = "no" // only 0 and false switch off
	writeFile(t, w.home, ".claude/gate-escape.jsonl",
		`{"ts":"2026-03-10T10:00:00Z","gate":"HOW_DO_I_GATE","released_by":"PROCEDURES_ENABLE_HOW_DO_I_GATE"}`+"\n", 0o644)
	r := Run(w.options())
	text := dump(t, r)
	for _, c := range []struct {
		subject string
		status  Status
		reason  string
	}{
		{"how-do-i-gate", Warn, "switched off by PROCEDURES_ENABLE_HOW_DO_I_GATE=FALSE"},
		{"am-i-done-gate", Warn, "CLAUDE_PLUGIN_OPTION_ENABLE_AM_I_DONE_GATE=0 (the plugin option enable_am_i_done_gate)"},
		{"enforce-frontmatter", Warn, "PROCEDURES_ENABLE_FRONTMATTER_CHECK=\"no\" is not recognised: the gate stays on"},
		{"escape log", OK, "1 switched-off release in the window (HOW_DO_I_GATE by PROCEDURES_ENABLE_HOW_DO_I_GATE: 1)"},
	} {
		fs := findings(r, SectionSwitches, c.subject)
		if len(fs) != 1 || fs[0].Status != c.status || !strings.Contains(fs[0].Reason, c.reason) {
			t.Errorf("%s: want %s %q:\n%s", c.subject, c.status, c.reason, text)
		}
	}
	if _, err := os.Stat(filepath.Join(w.home, ".claude", "gate-escape.jsonl")); err != nil {
		t.Fatal(err)
	}
	// Recognised values, any case, and an empty one are no finding of their own.
	for _, v := range []string{"1", "true", "TRUE", ""} {
		w.env["PROCEDURES_ENABLE_FRONTMATTER_CHECK"] = v
		w.env["CLAUDE_PLUGIN_OPTION_ENABLE_FRONTMATTER_CHECK"] = v
		if fs := findings(Run(w.options()), SectionSwitches, "enforce-frontmatter"); len(fs) != 1 || fs[0].Status != OK || fs[0].Reason != "on" {
			t.Errorf("%q: %v", v, fs)
		}
	}
	// An off value wins over an unrecognised one: one finding, the off one.
	w.env["PROCEDURES_ENABLE_FRONTMATTER_CHECK"] = "0"
	w.env["CLAUDE_PLUGIN_OPTION_ENABLE_FRONTMATTER_CHECK"] = "off"
	if fs := findings(Run(w.options()), SectionSwitches, "enforce-frontmatter"); len(fs) != 1 || !strings.Contains(fs[0].Reason, "switched off by PROCEDURES_ENABLE_FRONTMATTER_CHECK=0") {
		t.Errorf("off and unrecognised: %v", fs)
	}
	if data, _ := os.ReadFile(filepath.Join(w.home, ".claude", "gate-escape.jsonl")); bytes.Count(data, []byte("\n")) != 1 {
		t.Errorf("evaluating the switches wrote an escape record:\n%s", data)
	}
}

// --json carries the same findings as the text report: the text rendered
// from the decoded JSON is the text report, byte for byte.
func TestJSONMatchesText(t *testing.T) {
	w := newWorld(t)
	os.RemoveAll(filepath.Join(w.plugin, "skills", "how-do-i"))
	w.env["PROCEDURES_ENABLE_AM_I_DONE_GATE"] = "false"
	var log strings.Builder
	for _, why := range everyReason {
		log.WriteString(foLine(fixedNow.Add(-time.Hour), "how-do-i", why, "s"))
	}
	log.WriteString("garbage\n")
	writeFile(t, w.home, ".claude/gate-failopen.jsonl", log.String(), 0o644)
	r := Run(w.options())
	var text, js bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Report
		Summary map[Status]int `json:"summary"`
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Findings) != len(r.Findings) {
		t.Fatalf("JSON has %d findings, text %d", len(back.Findings), len(r.Findings))
	}
	var again bytes.Buffer
	back.Report.WriteText(&again)
	if again.String() != text.String() {
		t.Errorf("text from JSON differs:\n--- text\n%s--- from JSON\n%s", text.String(), again.String())
	}
	if back.Summary[Fail] != r.Count(Fail) || back.Summary[Warn] != r.Count(Warn) || back.Summary[OK] != r.Count(OK) {
		t.Errorf("summary %v", back.Summary)
	}
	if r.Count(Fail) < len(everyReason)+1 || r.Count(Warn) < 2 {
		t.Errorf("fixture too small: %d fails, %d warns", r.Count(Fail), r.Count(Warn))
	}
}

// The doctor only reads: after a run over a tree with every kind of state
// (missing directories included, which a careless check would create),
// every path, mode, size and mtime is as before.
func TestReadOnly(t *testing.T) {
	w := newWorld(t)
	os.RemoveAll(filepath.Join(w.plugin, "skills", "am-i-done"))
	writeFile(t, w.home, ".claude/gate-failopen.jsonl", foLine(fixedNow, "how-do-i", "no-jq", "s")+"junk\n", 0o644)
	writeFile(t, w.home, ".claude/gate-escape.jsonl", "junk\n", 0o644)
	writeFile(t, w.ts, "digests/s1.digest.1.a", "x\n", 0o600)
	writeFile(t, w.corpus, "references/decisions/bad.md", "no frontmatter\n", 0o644)
	os.Chmod(filepath.Join(w.plugin, "bin", bundle.Host().String(), bundle.Host().Exe()), 0o644)
	for _, c := range []struct {
		env map[string]string
		def string // the replaced default turn-state directory, if any
	}{
		{nil, ""},
		{map[string]string{"TURN_STATE_DIR": filepath.Join(w.root, "missing-ts")}, ""},
		{map[string]string{"SESSION_DIGEST_DIR": filepath.Join(w.root, "missing-digests"), "PROCEDURES_ENABLE_HOW_DO_I_GATE": "0",
			"GATE_FAILOPEN_LOG": filepath.Join(w.root, "missing-log-dir", "fo.jsonl")}, ""},
		{map[string]string{"TURN_STATE_DIR": ""}, filepath.Join(w.root, "default-ts")},
	} {
		env := c.env
		before := snapshot(t, w.root)
		o := w.options()
		o.TurnStateDefault = c.def
		merged := maps.Clone(w.env)
		maps.Copy(merged, env)
		o.Settings = settings(merged)
		Run(o)
		if after := snapshot(t, w.root); after != before {
			t.Errorf("env %v: the tree changed:\n--- before\n%s--- after\n%s", env, before, after)
		}
	}
}

func snapshot(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		size := int64(0)
		if !fi.IsDir() {
			size = fi.Size()
		}
		fmt.Fprintf(&b, "%s %s %s %d\n", p, fi.Mode(), fi.ModTime().Format(time.RFC3339Nano), size)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{"7d": 7 * 24 * time.Hour, "36h": 36 * time.Hour, "90m": 90 * time.Minute} {
		if got, err := ParseDuration(in); err != nil || got != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	for _, in := range []string{"", "d", "0d", "-1h", "0s", "7", "x", "1.5d", "99999999999d"} {
		if _, err := ParseDuration(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

// A hook wired straight to a binary takes $PROCEDURES_BIN_DIR as its own
// directory when it is set (as the gate does), else the binary's: the
// gates' skills are looked up from there.
func TestSkillFromBinDirSetting(t *testing.T) {
	w := newWorld(t)
	exe := writeFile(t, w.root, "gobin/procedures", "x", 0o755)
	hooks := wiring.HooksJSON(func(c string) string { return exe + " " + c })
	writeFile(t, w.plugin, "hooks/hooks.json", string(hooks), 0o644)

	r := Run(w.options())
	if fs := findings(r, SectionWiring, "how-do-i-gate skill"); len(fs) != 1 || fs[0].Status != Fail {
		t.Errorf("no PROCEDURES_BIN_DIR: the skill is looked up beside the binary, where there is none:\n%s", dump(t, r))
	}
	w.env["PROCEDURES_BIN_DIR"] = filepath.Join(w.plugin, "bin")
	r = Run(w.options())
	for _, hook := range []string{"how-do-i-gate", "am-i-done-gate"} {
		if fs := findings(r, SectionWiring, hook+" skill"); len(fs) != 1 || fs[0].Status != OK {
			t.Errorf("PROCEDURES_BIN_DIR set to the plugin's bin: %s's skill not found from it:\n%s", hook, dump(t, r))
		}
	}
}
