package config

import (
	"os"
	"path/filepath"
)

// The query and writers' index: where it lives and its off switch.
var (
	envXDGCache = declare(Var{
		Name:    "XDG_CACHE_HOME",
		Default: "$HOME/.cache",
		Doc:     "the index lives under $XDG_CACHE_HOME/procedures when it is an absolute path naming an existing directory (query-records, enforce-frontmatter, log-record); the launcher keeps its private executable copy there too",
	})
	envNoIndex = declare(Var{
		Name:    "PROCEDURES_NO_INDEX",
		Default: "(unset: the index is used)",
		Doc:     "any value but empty or 0 turns the index off (query-records, enforce-frontmatter, log-record)",
	})
)

// IndexOff reports whether PROCEDURES_NO_INDEX turns the index off: any
// value but "" and "0".
func IndexOff(getenv Getenv) bool {
	v := envNoIndex.get(getenv)
	return v != "" && v != "0"
}

// CacheDir is the project's per-user cache directory, under which the index
// files (and any other cache) live: $XDG_CACHE_HOME/procedures when
// XDG_CACHE_HOME is an absolute path naming an existing directory, else
// $HOME/.cache/procedures when HOME is an absolute path naming an existing
// directory; "" when neither is usable, and the caches are then not kept
// (each command runs as with PROCEDURES_NO_INDEX=1).
//
// It only resolves the name (a stat of the base directory, never a
// creation): whoever writes below it may create the directories from that
// existing base down ($HOME/.cache, then procedures), never the base
// itself, so a missing home directory is never made. A base that is a
// symlink to a directory is followed; the caller still checks ownership of
// what it writes into.
func CacheDir(getenv Getenv) string {
	if x := envXDGCache.get(getenv); filepath.IsAbs(x) {
		if isDir(x) {
			return filepath.Join(x, "procedures")
		}
		return ""
	}
	if h := getenv(Home); filepath.IsAbs(h) && isDir(h) {
		return filepath.Join(h, ".cache", "procedures")
	}
	return ""
}

// IndexDir is the directory holding the index files: [CacheDir].
func IndexDir(getenv Getenv) string { return CacheDir(getenv) }

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
