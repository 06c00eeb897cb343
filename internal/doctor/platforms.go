package doctor

import (
	"debug/buildinfo"
	"fmt"
	"os"
	"path/filepath"

	"github.com/procedures-go/procedures/internal/bundle"
)

// buildOf names the build of a Go binary: its main module path and
// version and, when stamped, its VCS revision. It reads the binary's build
// information, so it works for any platform's binary (ELF, Mach-O, PE).
func buildOf(path string) (string, error) {
	info, err := buildinfo.ReadFile(path)
	if err != nil {
		return "", err
	}
	path, version := info.Main.Path, info.Main.Version
	if path == "" {
		path = "(no main module)"
	}
	if version == "" {
		version = "(no version)"
	}
	b := path + " " + version
	for _, s := range info.Settings {
		switch {
		case s.Key == "vcs.revision":
			b += " rev " + s.Value
		case s.Key == "vcs.modified" && s.Value == "true":
			b += " (modified)"
		}
	}
	return b, nil
}

// checkPlatformVersions adds a warning for each platform binary under
// plugin/bin whose build differs from the host's binary, the one the
// launcher runs here (a partial re-bundle over an older full one leaves
// such binaries: another machine would run another version). Nothing is
// said when the host's binary carries no Go build information.
func checkPlatformVersions(r *Report, plugin string, f fixer) {
	bin := filepath.Join(plugin, "bin")
	host := bundle.Host()
	hostExe := filepath.Join(bin, host.String(), host.Exe())
	want, err := buildOf(hostExe)
	if err != nil {
		return
	}
	for _, p := range bundle.Platforms {
		if p == host {
			continue
		}
		exe := filepath.Join(bin, p.String(), p.Exe())
		if fi, err := os.Lstat(exe); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		got, err := buildOf(exe)
		if err == nil && got == want {
			continue
		}
		if err != nil {
			got = fmt.Sprintf("unreadable as a Go binary (%v)", err)
		}
		r.add(Finding{Section: SectionWiring, Status: Warn, Subject: inPlugin(plugin, exe),
			Reason: fmt.Sprintf("build %s, but this platform's %s is %s: a %s machine runs another version",
				got, inPlugin(plugin, hostExe), want, p),
			Fix:  f.rebundle(plugin),
			Data: map[string]any{"platform": p.String(), "build": got, "host_build": want}})
	}
}
