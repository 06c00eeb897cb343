package commands

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/procedures-go/procedures/internal/bundle"
	"github.com/procedures-go/procedures/internal/cli"
)

const bundleUsage = `Usage: procedures bundle -o DIR [-platforms all|host|os-arch,...] [-binary FILE | -self] [-version V] [-author NAME]

Writes a plugin overlay into DIR: bin/procedures (a POSIX sh launcher),
bin/<os>-<arch>/procedures[.exe], hooks/hooks.json and
.claude-plugin/plugin.json. Binaries are built with the go command from the
module in the current directory (go run ./cmd/procedures bundle -o DIR);
-binary FILE or -self supply the host platform's binary instead (-self
works onto the bundle it runs from: every file is written beside its
target, then renamed over it).

Bundling again keeps what you changed: in plugin.json only switches it
lacks are added, the values you gave a switch (default, title, description)
are kept and named on stderr (a new plugin.json gets name, version,
description, author, -author NAME or procedures-go, and license); in
hooks.json only the hooks that run procedures are replaced, your own hooks
stay. A README.md, LICENSE or .claude-plugin/icon.png of yours stays.
Binaries of platforms not in -platforms are removed, each named on stderr.

Swapping the bash original: bundled into its plugin directory, the bundle
replaces its hook lines (bash ${CLAUDE_PLUGIN_ROOT}/hooks/<hook>.sh) by
ours, and its scripts/query-records.sh, session-digest-read.sh,
log-record.sh and lint-frontmatter.sh by shims that run bin/procedures;
each replacement is named on stderr, everything else of yours stays.

Nothing is written or removed through a symlink (DIR/bin, DIR/hooks, ...)
that leads out of DIR: the bundle refuses, naming it.

Flags:
  -o DIR          the overlay directory (created if missing)
  -platforms P    all (default), host, or a comma-separated list of os-arch
  -binary FILE    an already built binary for the host platform
  -self           use this very binary for the host platform (no go command
                  needed with -platforms host)
  -version V      plugin.json's version, set in an existing one too
                  (default: this build's for a new one; an existing one
                  keeps its own, and claude plugin update sees a new build
                  only when the version moves)
  -author NAME    a new plugin.json's author.name (default: procedures-go)
  --version       print this build's version
`

func runBundle(args []string, stdout, stderr io.Writer) int {
	fs := cli.FlagSet("procedures bundle") // the usage is printed below: on stdout for -h, on stderr after a mistake
	dir := fs.String("o", "", "the overlay directory")
	plats := fs.String("platforms", "all", "all, host, or a comma-separated list of os-arch")
	binary := fs.String("binary", "", "an already built binary for the host platform")
	self := fs.Bool("self", false, "use this very binary for the host platform (no go command needed with -platforms host)")
	version := fs.String("version", "", "plugin.json's version, set in an existing one too (default: this build's for a new one)")
	author := fs.String("author", "", "a new plugin.json's author.name (default: "+bundle.DefaultAuthor+")")
	if code, done := (cli.Help{Name: "bundle", Usage: bundleUsage}).Answer(args, stdout, stderr); done {
		return code
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprint(stdout, bundleUsage)
			return 0
		}
		fmt.Fprintf(stderr, "%v\n%s", err, bundleUsage)
		return 2
	}
	if *dir == "" || fs.NArg() > 0 {
		fmt.Fprint(stderr, bundleUsage)
		return 2
	}
	platforms, err := parsePlatforms(*plats)
	if err != nil {
		fmt.Fprintf(stderr, "procedures bundle: %v\n", err)
		return 2
	}
	if *self {
		exe, err := os.Executable()
		if err != nil {
			fmt.Fprintf(stderr, "procedures bundle: -self: %v\n", err)
			return 1
		}
		*binary = exe
	}
	v := *version
	if v == "" {
		v = pluginVersion(cli.Version())
	}
	if err := bundle.Write(bundle.Options{Dir: *dir, Platforms: platforms, Version: v, SetVersion: *version != "",
		Binary: *binary, Author: *author, Log: stderr}); err != nil {
		fmt.Fprintf(stderr, "procedures bundle: %v\n", err)
		return 1
	}
	return 0
}

func parsePlatforms(s string) ([]bundle.Platform, error) {
	switch s {
	case "all":
		return bundle.Platforms, nil
	case "host":
		return []bundle.Platform{bundle.Host()}, nil
	}
	var out []bundle.Platform
	for _, name := range strings.Split(s, ",") {
		found := false
		for _, p := range bundle.Platforms {
			if p.String() == name {
				out = append(out, p)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("unsupported platform %q (supported: all, host, or any of linux-amd64, linux-arm64, darwin-amd64, darwin-arm64, windows-amd64, windows-arm64)", name)
		}
	}
	return out, nil
}

// pluginVersion turns a build's version into plugin.json's: a release tag
// without its "v", else 0.0.0-devel.
func pluginVersion(v string) string {
	if strings.HasPrefix(v, "v") && !strings.Contains(v, " ") {
		return strings.TrimPrefix(v, "v")
	}
	return "0.0.0-devel"
}
