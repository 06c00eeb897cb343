package config

// The index's cache directory. internal/index still reads it itself (its
// Dir); the lead moves that reading here.
var _ = declare(Var{
	Name:    "XDG_CACHE_HOME",
	Default: "$HOME/.cache",
	Doc:     "the index lives under $XDG_CACHE_HOME/procedures when it is an absolute path (query-records, enforce-frontmatter, log-record); the launcher keeps its private executable copy there too",
})
