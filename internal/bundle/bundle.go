// Package bundle writes the plugin overlay that ships procedures-go: the
// multi-call binary for every supported platform, the POSIX sh launcher
// that picks one, hooks/hooks.json and .claude-plugin/plugin.json, all made
// from the wiring table.
package bundle

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/procedures-go/procedures/internal/wiring"
)

// Platform is one GOOS/GOARCH pair a bundle carries a binary for.
type Platform struct{ OS, Arch string }

func (p Platform) String() string { return p.OS + "-" + p.Arch }

// Exe is the binary's file name on p.
func (p Platform) Exe() string {
	if p.OS == "windows" {
		return "procedures.exe"
	}
	return "procedures"
}

// Platforms are the platforms a bundle supports.
var Platforms = []Platform{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

// Host is the platform this program runs on.
func Host() Platform { return Platform{runtime.GOOS, runtime.GOARCH} }

// WhyBinaryUnrunnable is the fail-open reason the launcher records when it
// finds no binary it can run for a hook on this platform (missing, or not
// executable and not copyable): the hook released. Only the launcher
// writes it (the Go logger never does), naming the file it looked for on
// stderr; the doctor counts it like the reasons of package failopen.
const WhyBinaryUnrunnable = "binary-unrunnable"

// Package is the main package every platform binary is built from.
const Package = "github.com/procedures-go/procedures/cmd/procedures"

// Options say what to write.
type Options struct {
	Dir       string     // the overlay's root; created if missing
	Platforms []Platform // nil means all of Platforms
	Version   string     // a new plugin.json's version
	// SetVersion also sets Version in an existing plugin.json (-version V);
	// without it an existing plugin.json keeps its own.
	SetVersion bool
	// Binary, when set, is an already built binary for the host platform:
	// it is copied in place of building the host's binary.
	Binary string
	// Author is plugin.json's author.name for a new plugin.json (an
	// existing one keeps its own); empty means DefaultAuthor.
	Author string
	Log    io.Writer // progress lines; nil for none
}

// DefaultAuthor is a new plugin.json's author.name when Options.Author is
// empty.
const DefaultAuthor = "procedures-go"

// Description is a new plugin.json's description.
const Description = "Procedural knowledge for agents: record stores, warm digests, and the gates that make an agent look before it acts and review before it stops."

// PluginJSON is a new plugin.json: name, version, description, author,
// license, network (no hosts: nothing the plugin runs goes online) and the
// userConfig switches.
func PluginJSON(version, author string) []byte {
	if author == "" {
		author = DefaultAuthor
	}
	o, err := parseObject(wiring.PluginJSON("procedures", version, Description))
	if err != nil {
		panic(err) // the wiring table's own output
	}
	var withAuthor object
	for _, m := range o {
		withAuthor = append(withAuthor, m)
		if m.Key == "description" {
			withAuthor = append(withAuthor, member{"author", marshal(map[string]string{"name": author})},
				member{"license", marshal(LicenseID)},
				member{"network", marshal(map[string][]string{"hosts": {}})})
		}
	}
	out, err := render(withAuthor)
	if err != nil {
		panic(err)
	}
	return out
}

//go:embed launcher.sh
var launcher string

// HookCommand is the hooks.json command line that runs a hook through the
// launcher. Claude Code runs it with sh -c; that shell sources the
// launcher (one exec of sh less per hook call than running it as
// sh <launcher>). The positional parameters carry the launcher's own path
// and the hook, since dash ignores arguments given to ".".
func HookCommand(command string) string {
	return `set -- "${CLAUDE_PLUGIN_ROOT}/bin/procedures" ` + command + `; . "$1"`
}

// SourceableMark is a line of every launcher that may be sourced as
// HookCommand sources it (its usage comment); one without it predates the
// sourcing line and, sourced, fails every hook ("no binary").
const SourceableMark = `#        set -- <plugin>/bin/procedures <command> [args...]; . "$1"`

// OldHookCommand is the command line bundles wrote before HookCommand
// sourced the launcher; bundles already installed still carry it, so
// re-bundling and the doctor recognise it.
func OldHookCommand(command string) string {
	return `sh "${CLAUDE_PLUGIN_ROOT}/bin/procedures" ` + command
}

// Launcher is the text of bin/procedures for a bundle carrying platforms.
func Launcher(platforms []Platform) string {
	var names []string
	for _, p := range platforms {
		names = append(names, p.String())
	}
	var hooks []string
	for _, h := range wiring.Hooks() {
		hooks = append(hooks, h.Command)
	}
	return strings.NewReplacer(
		"@@PLATFORM_WORDS@@", strings.Join(names, " "),
		"@@WHY_UNRUNNABLE@@", WhyBinaryUnrunnable,
		"@@HOOKS@@", strings.Join(hooks, " | "),
	).Replace(launcher)
}

// Write writes the overlay: bin/procedures (the launcher),
// bin/<os>-<arch>/procedures[.exe] for each platform (built with
// CGO_ENABLED=0 -trimpath -ldflags "-s -w" by the go command, from the
// module in the current directory), hooks/hooks.json and
// .claude-plugin/plugin.json, and, where the directory has none, a
// README.md, the LICENSE and .claude-plugin/icon.png.
//
// An existing plugin.json or hooks.json is merged, not replaced (see
// MergePluginJSON and MergeHooksJSON); one that does not parse stops the
// bundle before anything is written. The bash original's hook lines are
// replaced by ours and, in a directory that holds its scripts, the four
// scripts its skills call become shims (see Shims); each replacement is
// named in the log, and so is every switch value kept. Binaries of
// supported platforms left from an earlier bundle but not in o.Platforms
// are removed (the launcher no longer names them), each named in the log.
// Nothing is written or removed through a symlink that leads out of
// o.Dir. Every file is written beside its target and renamed over it, so
// a binary that is running (bundle -self onto its own bundle) is
// replaced, not written into.
func Write(o Options) error {
	platforms := o.Platforms
	if platforms == nil {
		platforms = Platforms
	}
	if err := refuseEscapes(o.Dir); err != nil {
		return err
	}
	hooksPath := filepath.Join(o.Dir, "hooks", "hooks.json")
	pluginPath := filepath.Join(o.Dir, ".claude-plugin", "plugin.json")
	var replaced, kept []string
	hooks, err := merged(hooksPath, wiring.HooksJSON(HookCommand), func(old, fresh []byte) (out []byte, err error) {
		out, replaced, err = mergeHooks(old, fresh)
		return out, err
	})
	if err != nil {
		return err
	}
	setVersion := ""
	if o.SetVersion {
		setVersion = o.Version
	}
	hadPlugin := false
	plugin, err := merged(pluginPath, PluginJSON(o.Version, o.Author), func(old, fresh []byte) (out []byte, err error) {
		hadPlugin = true
		out, kept, err = mergePlugin(old, fresh, setVersion)
		return out, err
	})
	if err != nil {
		return err
	}
	changed, err := writeBinaries(o, platforms)
	if err != nil {
		return err
	}
	if err := removeStale(o, platforms); err != nil {
		return err
	}
	files := []file{
		{filepath.Join(o.Dir, "bin", "procedures"), []byte(Launcher(platforms)), 0o755},
		{hooksPath, hooks, 0o644},
		{pluginPath, plugin, 0o644},
	}
	shims := len(replaced) > 0 || holdsOriginal(o.Dir)
	if shims {
		files = append(files, shimFiles(o)...)
	}
	for _, f := range files {
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			return err
		}
		if err := writeReplace(f.path, f.data, f.mode); err != nil {
			return err
		}
		logf(o.Log, "wrote %s", f.path)
	}
	if err := writeExtras(o); err != nil {
		return err
	}
	for _, r := range replaced {
		logf(o.Log, "replaced the bash original's hook %s (now run by bin/procedures)", r)
	}
	for _, k := range kept {
		logf(o.Log, "%s (%s)", k, pluginPath)
	}
	if hadPlugin && !o.SetVersion && changed {
		logf(o.Log, "kept the version of %s: claude plugin update sees this new build only when the version moves (bundle again with -version V)", pluginPath)
	}
	return nil
}

// writeBinaries writes the binary of every platform and reports whether
// the host's changed (it was absent or held other bytes).
func writeBinaries(o Options, platforms []Platform) (bool, error) {
	changed := false
	for _, p := range platforms {
		out := filepath.Join(o.Dir, "bin", p.String(), p.Exe())
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return false, err
		}
		var before []byte
		if p == Host() {
			before, _ = os.ReadFile(out)
		}
		var err error
		if o.Binary != "" && p == Host() {
			logf(o.Log, "copy %s -> %s", o.Binary, out)
			err = copyExecutable(o.Binary, out)
		} else {
			logf(o.Log, "build %s", out)
			err = build(p, out)
		}
		if err != nil {
			return false, fmt.Errorf("%s: %w", p, err)
		}
		if p == Host() {
			after, _ := os.ReadFile(out)
			changed = !bytes.Equal(before, after)
		}
	}
	return changed, nil
}

// removeStale removes the binaries of supported platforms not in
// platforms, each named in the log.
func removeStale(o Options, platforms []Platform) error {
	for _, p := range Platforms {
		if slices.Contains(platforms, p) {
			continue
		}
		stale := filepath.Join(o.Dir, "bin", p.String(), p.Exe())
		if fi, err := os.Lstat(stale); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if err := os.Remove(stale); err != nil {
			return fmt.Errorf("removing the stale %s: %w", stale, err)
		}
		os.Remove(filepath.Dir(stale)) // only when empty: never what the bundle did not write
		logf(o.Log, "removed stale %s (%s is not in -platforms; bundle it again to keep it)", stale, p)
	}
	return nil
}

// shimFiles are the shims, each one that replaces the bash original
// named in the log.
func shimFiles(o Options) []file {
	var fs []file
	for _, s := range Shims {
		path := filepath.Join(o.Dir, filepath.FromSlash(s.Script))
		if old, err := os.ReadFile(path); err == nil && !IsShim(old) {
			logf(o.Log, "replaced the bash original's %s by a shim that runs bin/procedures %s", s.Script, s.Command)
		}
		fs = append(fs, file{path, []byte(ShimText(s.Command)), 0o755})
	}
	return fs
}

// writeExtras writes each of extras that the directory lacks.
func writeExtras(o Options) error {
	for _, f := range extras(o.Dir) {
		ok, err := absent(f.path)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if err := writeReplace(f.path, f.data, f.mode); err != nil {
			return err
		}
		logf(o.Log, "wrote %s", f.path)
	}
	return writeAssets(o.Dir, o.Log)
}

// refuseEscapes fails, naming it, when a directory the bundle writes into
// (bin, bin/<os>-<arch>, hooks, .claude-plugin, scripts) or a file it
// replaces resolves, through a symlink, outside dir: nothing is written
// then.
func refuseEscapes(dir string) error {
	root, err := filepath.EvalSymlinks(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // a new directory: nothing in it yet
	}
	if err != nil {
		return err
	}
	paths := []string{"bin", "hooks", ".claude-plugin", "scripts"}
	for _, p := range Platforms {
		paths = append(paths, filepath.Join("bin", p.String()))
	}
	for _, rel := range paths {
		path := filepath.Join(dir, rel)
		real, err := filepath.EvalSymlinks(path)
		if errors.Is(err, fs.ErrNotExist) {
			if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
				return fmt.Errorf("%s is a symlink that leads nowhere: the bundle writes nothing through it (remove it and bundle again)", path)
			}
			continue
		}
		if err != nil {
			return err
		}
		if r, err := filepath.Rel(root, real); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return fmt.Errorf("%s leads out of %s (to %s): the bundle writes nothing through a symlink out of its directory (make it a directory of its own and bundle again)", path, dir, real)
		}
	}
	return nil
}

// merged is fresh merged into the file at path, or fresh when there is no
// such file. A file that is not a regular file, or does not parse, is an
// error naming it.
func merged(path string, fresh []byte, merge func(old, fresh []byte) ([]byte, error)) ([]byte, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fresh, nil
	}
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file; move it away and bundle again", path)
	}
	old, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out, err := merge(old, fresh)
	if err != nil {
		return nil, fmt.Errorf("%s: %v (the bundle keeps what you wrote in it: fix it, or move it away, and bundle again)", path, err)
	}
	return out, nil
}

// writeReplace writes data to a new file beside path and renames it over
// path.
func writeReplace(path string, data []byte, mode os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".new-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp, mode)
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		os.Remove(tmp)
	}
	return werr
}

func build(p Platform, out string) error {
	tmp := filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".new")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", tmp, Package)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+p.OS, "GOARCH="+p.Arch)
	if msg, err := cmd.CombinedOutput(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("go build: %v\n%s", err, msg)
	}
	if err := os.Rename(tmp, out); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

func copyExecutable(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return writeReplace(to, data, 0o755)
}

func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, "bundle: "+format+"\n", args...)
	}
}
