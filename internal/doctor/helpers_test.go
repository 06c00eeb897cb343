package doctor

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/procedures-go/procedures/internal/bundle"
	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/wiring"
)

// writeFile writes data at dir/name, making its parents.
func writeFile(t testing.TB, dir, name, data string, mode fs.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
	return p
}

// makeBundle writes a plugin bundle for the host under dir, as the bundle
// command lays it out, with a stand-in binary and both gate skills.
func makeBundle(t testing.TB, dir string) string {
	t.Helper()
	h := bundle.Host()
	writeFile(t, dir, "bin/procedures", bundle.Launcher([]bundle.Platform{h}), 0o755)
	writeFile(t, dir, "bin/"+h.String()+"/"+h.Exe(), "stand-in binary\n", 0o755)
	writeFile(t, dir, "hooks/hooks.json", string(wiring.HooksJSON(bundle.HookCommand)), 0o644)
	writeFile(t, dir, ".claude-plugin/plugin.json", string(wiring.PluginJSON("procedures", "0.0.0", "d")), 0o644)
	writeFile(t, dir, "skills/how-do-i/SKILL.md", "---\nname: how-do-i\n---\n", 0o644)
	writeFile(t, dir, "skills/am-i-done/SKILL.md", "---\nname: am-i-done\n---\n", 0o644)
	return dir
}

// fixedNow is the clock of the unit tests.
var fixedNow = time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)

// world is a healthy installation under one temporary directory: a bundle,
// a HOME with an empty fail-open log, a turn-state directory with digests,
// and an empty corpus.
type world struct {
	root, plugin, home, ts, corpus string
	env                            map[string]string
}

func newWorld(t testing.TB) *world {
	t.Helper()
	root := t.TempDir()
	w := &world{root: root, plugin: filepath.Join(root, "p"), home: filepath.Join(root, "home"),
		ts: filepath.Join(root, "ts"), corpus: filepath.Join(root, "corpus")}
	makeBundle(t, w.plugin)
	writeFile(t, w.home, ".claude/gate-failopen.jsonl", "", 0o644)
	if err := os.MkdirAll(w.corpus, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(w.ts, "digests"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(w.ts, 0o700); err != nil {
		t.Fatal(err)
	}
	w.env = map[string]string{
		"HOME":           w.home,
		"TURN_STATE_DIR": w.ts,
		"CODEX_ROOT":     w.corpus,
		"PATH":           os.Getenv("PATH"),
	}
	return w
}

func (w *world) options() Options {
	return Options{Plugin: w.plugin, Now: fixedNow, Settings: settings(w.env), Version: "test"}
}

// settings are the doctor's settings read from env alone.
func settings(env map[string]string) config.Doctor {
	return config.DoctorFrom(func(k string) string { return env[k] })
}

// findings returns the findings of r whose subject starts with prefix.
func findings(r *Report, section, prefix string) []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Section == section && strings.HasPrefix(f.Subject, prefix) {
			out = append(out, f)
		}
	}
	return out
}

func dump(t testing.TB, r *Report) string {
	t.Helper()
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	checkFixes(t, r)
	return b.String()
}

// heapSampler is an io.Reader that yields size bytes of lines made from
// pattern, over and over, without storing them, and samples the heap as it
// goes: peak is the largest HeapAlloc seen.
type heapSampler struct {
	pattern []byte
	left    int64
	off     int
	reads   int
	peak    uint64
}

func newHeapSampler(pattern string, size int64) *heapSampler {
	runtime.GC()
	return &heapSampler{pattern: []byte(pattern), left: size}
}

func (s *heapSampler) Read(p []byte) (int, error) {
	if s.left <= 0 {
		s.sample()
		return 0, io.EOF
	}
	if s.reads%16 == 0 {
		s.sample()
	}
	s.reads++
	n := 0
	for n < len(p) && s.left > 0 {
		c := copy(p[n:], s.pattern[s.off:])
		if int64(c) > s.left {
			c = int(s.left)
		}
		n += c
		s.left -= int64(c)
		s.off = (s.off + c) % len(s.pattern)
	}
	return n, nil
}

func (s *heapSampler) sample() {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	s.peak = max(s.peak, m.HeapAlloc)
}
