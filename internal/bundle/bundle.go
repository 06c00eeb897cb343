// Package bundle writes the plugin overlay that ships procedures-go: the
// multi-call binary for every supported platform, the POSIX sh launcher
// that picks one, hooks/hooks.json and .claude-plugin/plugin.json, all made
// from the wiring table.
package bundle

import (
	_ "embed"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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

// Package is the main package every platform binary is built from.
const Package = "github.com/procedures-go/procedures/cmd/procedures"

// Options say what to write.
type Options struct {
	Dir       string     // the overlay's root; created if missing
	Platforms []Platform // nil means all of Platforms
	Version   string     // plugin.json's version
	// Binary, when set, is an already built binary for the host platform:
	// it is copied in place of building the host's binary.
	Binary string
	Log    io.Writer // progress lines; nil for none
}

//go:embed launcher.sh
var launcher string

// HookCommand is the hooks.json command line that runs a hook through the
// launcher.
func HookCommand(command string) string {
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
		"@@PLATFORMS@@", strings.Join(names, ", "),
		"@@HOOKS@@", strings.Join(hooks, " | "),
	).Replace(launcher)
}

// Write writes the overlay: bin/procedures (the launcher),
// bin/<os>-<arch>/procedures[.exe] for each platform (built with
// CGO_ENABLED=0 -trimpath -ldflags "-s -w" by the go command, from the
// module in the current directory), hooks/hooks.json and
// .claude-plugin/plugin.json.
func Write(o Options) error {
	platforms := o.Platforms
	if platforms == nil {
		platforms = Platforms
	}
	for _, p := range platforms {
		out := filepath.Join(o.Dir, "bin", p.String(), p.Exe())
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
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
			return fmt.Errorf("%s: %w", p, err)
		}
	}
	files := []struct {
		name string
		data string
		mode os.FileMode
	}{
		{"bin/procedures", Launcher(platforms), 0o755},
		{"hooks/hooks.json", string(wiring.HooksJSON(HookCommand)), 0o644},
		{".claude-plugin/plugin.json", string(wiring.PluginJSON("procedures", o.Version,
			"Procedural knowledge for agents: record stores, warm digests, and the gates that make an agent look before it acts and review before it stops.")), 0o644},
	}
	for _, f := range files {
		path := filepath.Join(o.Dir, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(f.data), f.mode); err != nil {
			return err
		}
		if err := os.Chmod(path, f.mode); err != nil { // WriteFile keeps an existing file's mode
			return err
		}
		logf(o.Log, "wrote %s", path)
	}
	return nil
}

func build(p Platform, out string) error {
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, Package)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+p.OS, "GOARCH="+p.Arch)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, msg)
	}
	return nil
}

func copyExecutable(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := os.WriteFile(to, data, 0o755); err != nil {
		return err
	}
	return os.Chmod(to, 0o755)
}

func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, "bundle: "+format+"\n", args...)
	}
}
