package config

// The evidence sweep's per-file cache: its off switch (it lives beside the
// index, in IndexDir).
var envNoCache = declareStatic(&noCacheVar)

// noCacheVar is a package variable, not a heap copy: the package's init
// stays within the multi-call binary's allocation budget.
var noCacheVar = Var{
	Name:    "PROCEDURES_NO_CACHE",
	Default: "(unset: the cache is used)",
	Doc:     "any value but empty or 0 turns off `procedures evidence`'s per-file cache (beside the index, under $XDG_CACHE_HOME/procedures)",
}

// declareStatic is declare for a variable that already lives in the
// package's data.
func declareStatic(v *Var) *Var {
	registry = append(registry, v)
	return v
}

// EvidenceCacheOff reports whether PROCEDURES_NO_CACHE turns the evidence
// cache off: any value but "" and "0".
func EvidenceCacheOff(getenv Getenv) bool {
	v := envNoCache.get(getenv)
	return v != "" && v != "0"
}

// Evidence is what `procedures evidence` takes from the environment, read
// once by its command.
type Evidence struct {
	Home        string // $HOME: the default transcripts, the installed plugins, the user's skills
	FailOpenLog string // the fail-open log whose records are joined to the sessions
	CacheDir    string // the per-file cache's directory; "" when PROCEDURES_NO_CACHE turns it off or none is known
	MemLimitSet bool   // GOMEMLIMIT is set: the command leaves the heap limit alone
}

// EvidenceFrom reads the evidence command's settings.
func EvidenceFrom(getenv Getenv) Evidence {
	e := Evidence{Home: getenv(Home), FailOpenLog: FailOpenLogPath(getenv), MemLimitSet: MemLimitSet(getenv)}
	if !EvidenceCacheOff(getenv) {
		e.CacheDir = IndexDir(getenv)
	}
	return e
}
