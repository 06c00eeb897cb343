package cli

import (
	"runtime/debug"
)

// Version is the module version and VCS revision this binary was built
// from, as the go command recorded them: "v1.2.3", "(devel) rev 1a2b3c4d5e6f",
// "(devel) rev 1a2b3c4d5e6f+modified", or "(unknown)" without build info.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+modified"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		v += " rev " + rev + modified
	}
	return v
}
