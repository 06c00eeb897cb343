package doctor

import (
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"time"
)

// This file spells the fixes of the Switches, Fail-open log and Stores
// sections: each one POSIX sh command, paths quoted, that runs as printed.
// A fix that changes a variable is an export or unset: it holds in the
// shell it runs in, so the reason says to run it in the shell that starts
// claude (or to put it in that shell's profile).

// inShell is the reason's note for a fix that changes the environment.
const inShell = "; run the fix in the shell that starts claude, or put it in that shell's profile"

// selfCmd is this procedures as a fix runs it: the running multi-call
// binary's path, else procedures from PATH.
func selfCmd(o *Options) string {
	if e := multicall(o.Executable); e != "" {
		return shellQuote(e)
	}
	return "procedures"
}

// recheck is the command that runs the doctor again with a window that
// starts after last: rows at or before last are looked past, later ones
// still count.
func recheck(o *Options, last time.Time) string {
	d := (o.Now.Sub(last) - time.Nanosecond).Truncate(time.Second)
	if d < time.Second {
		d = time.Second
	}
	cmd := selfCmd(o) + " doctor"
	if o.Plugin != "" {
		cmd += " --plugin " + shellQuote(o.Plugin)
	}
	return cmd + " --since " + FormatDuration(d)
}

// homeDir is home ($HOME), else the user database's home directory, else
// "".
func homeDir(home string) string {
	if home != "" {
		return home
	}
	if u, err := user.Current(); err == nil {
		return u.HomeDir
	}
	return ""
}

// ownDir is a directory of the user's own for a store named name, under
// $HOME/.local/state/procedures (home is $HOME).
func ownDir(home, name string) string {
	return filepath.Join(homeDir(home), ".local", "state", "procedures", name)
}

// pointAt is the command that creates dir (private, if missing) and sets
// name to path, a file in it or dir itself.
func pointAt(name, dir, path string) string {
	return "mkdir -p -m 700 -- " + shellQuote(dir) + " && export " + name + "=" + shellQuote(path)
}

// setAside is the command that renames path out of the way, to a name
// stamped with now, so nothing it holds is lost.
func setAside(path string, now time.Time) string {
	return "mv -- " + shellQuote(path) + " " + shellQuote(path+"."+now.UTC().Format("20060102T150405Z"))
}

// mine reports whether path exists and the user owns it.
func mine(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && ownedByMe(fi)
}

// globQuote escapes the find -name pattern characters of s.
func globQuote(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// envNote is inShell when fix changes the environment, else "".
func envNote(fix string) string {
	if strings.Contains(fix, "export ") || strings.HasPrefix(fix, "unset ") {
		return inShell
	}
	return ""
}
