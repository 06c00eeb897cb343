package config

// The evidence sweep's per-file cache: its off switch (it lives beside the
// index, in IndexDir).
var envNoCache = declare(Var{
	Name:    "PROCEDURES_NO_CACHE",
	Default: "(unset: the cache is used)",
	Doc:     "any value but empty or 0 turns off `procedures evidence`'s per-file cache (beside the index, under $XDG_CACHE_HOME/procedures)",
})

// EvidenceCacheOff reports whether PROCEDURES_NO_CACHE turns the evidence
// cache off: any value but "" and "0".
func EvidenceCacheOff(getenv Getenv) bool {
	v := envNoCache.get(getenv)
	return v != "" && v != "0"
}
