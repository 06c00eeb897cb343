package bundle

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/procedures-go/procedures/internal/wiring"
)

// UpstreamHook reports whether a hooks.json command line is the bash
// original's wiring of one of the six hooks: a shell (bash or sh) running
// ${CLAUDE_PLUGIN_ROOT}/hooks/<hook>.sh (or $CLAUDE_PLUGIN_ROOT, the path
// bare or in double quotes), and returns the hook it runs. Bundling into
// such a plugin replaces these lines by ours; the doctor names them.
func UpstreamHook(command string) (string, bool) {
	f := strings.Fields(command)
	if len(f) != 2 || (f[0] != "bash" && f[0] != "sh") {
		return "", false
	}
	path := f[1]
	if p, ok := strings.CutPrefix(path, `"`); ok {
		if path, ok = strings.CutSuffix(p, `"`); !ok {
			return "", false
		}
	}
	for _, root := range []string{"${CLAUDE_PLUGIN_ROOT}", "$CLAUDE_PLUGIN_ROOT"} {
		if rest, ok := strings.CutPrefix(path, root+"/hooks/"); ok {
			name, ok := strings.CutSuffix(rest, ".sh")
			if ok && wiring.IsHook(name) {
				return name, true
			}
		}
	}
	return "", false
}

// A Shim is one script of the bash original that its skills and agent
// call (bash "${CLAUDE_SKILL_DIR}/../../scripts/<name>.sh" …); the bundle
// puts a POSIX sh file there that runs the bundled binary instead.
type Shim struct {
	Script  string // the path in the plugin, e.g. scripts/query-records.sh
	Command string // the procedures command it runs
}

// Shims are the scripts the bash original's skills and agent call.
var Shims = []Shim{
	{"scripts/query-records.sh", "query-records"},
	{"scripts/session-digest-read.sh", "session-digest-read"},
	{"scripts/log-record.sh", "log-record"},
	{"scripts/lint-frontmatter.sh", "lint-frontmatter"},
}

// ShimMark is the second line of every shim: the doctor and the bundle
// tell a shim from the bash original by it.
const ShimMark = "# procedures-go shim: runs the bundled binary, not the bash original."

// ShimText is the shim for command: it runs the launcher two directories
// up from itself (run as `bash <shim>` or `sh <shim>`, $0 is its path).
func ShimText(command string) string {
	return "#!/bin/sh\n" + ShimMark + "\n" +
		"# Written by procedures bundle; bundling again rewrites it.\n" +
		"case $0 in\n*/*) here=${0%/*} ;;\n*) here=. ;;\nesac\n" +
		"exec sh \"$here/../bin/procedures\" " + command + " \"$@\"\n"
}

// IsShim reports whether data is a shim the bundle wrote.
func IsShim(data []byte) bool {
	first, rest, _ := bytes.Cut(data, []byte("\n"))
	second, _, _ := bytes.Cut(rest, []byte("\n"))
	return string(first) == "#!/bin/sh" && string(second) == ShimMark
}

// holdsOriginal reports whether dir holds one of the bash original's
// scripts (or a shim already): then the bundle writes the shims.
func holdsOriginal(dir string) bool {
	for _, s := range Shims {
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(s.Script))); err == nil {
			return true
		}
	}
	return false
}
