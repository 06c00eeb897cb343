package config

import "path/filepath"

// The query and writers' index: where it lives and its off switch.
var (
	envXDGCache = declare(Var{
		Name:    "XDG_CACHE_HOME",
		Default: "$HOME/.cache",
		Doc:     "the index lives under $XDG_CACHE_HOME/procedures when it is an absolute path (query-records, enforce-frontmatter, log-record); the launcher keeps its private executable copy there too",
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

// IndexDir is the directory holding the index files:
// $XDG_CACHE_HOME/procedures when XDG_CACHE_HOME is an absolute path, else
// $HOME/.cache/procedures; "" when neither is usable.
func IndexDir(getenv Getenv) string {
	if x := envXDGCache.get(getenv); filepath.IsAbs(x) {
		return filepath.Join(x, "procedures")
	}
	if h := getenv(Home); filepath.IsAbs(h) {
		return filepath.Join(h, ".cache", "procedures")
	}
	return ""
}
