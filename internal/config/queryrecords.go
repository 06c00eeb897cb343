package config

var (
	envLimit = declare(Var{
		Name:    "QUERY_RECORDS_LIMIT",
		Default: "0 (uncapped)",
		Doc:     "query-records' default --limit; set but empty means 0",
	})
	envRelRatio = declare(Var{
		Name:    "QUERY_RECORDS_REL_RATIO",
		Default: "(none)",
		Doc:     "query-records' default --rel-ratio",
	})
	_ = declare(Var{
		Name:    "QUERY_RECORDS_K_FLOOR",
		Default: "(ignored)",
		Doc:     "accepted for compatibility and ignored, as upstream (so is --k-floor N)",
	})
	envGOGC = declare(Var{
		Name:    "GOGC",
		Default: "(unset: query-records collects only near a 1 GiB heap)",
		Doc:     "Go's collector target; unless this is set (the runtime has then applied it), query-records turns the collector off for its run, with a soft memory limit of 1 GiB (GOMEMLIMIT)",
	})
	envGOMEMLIMIT = declare(Var{
		Name:    "GOMEMLIMIT",
		Default: "(unset: 1 GiB for query-records when GOGC is unset too; procedures evidence sets its own)",
		Doc:     "Go's soft memory limit; query-records (unless GOGC is set too) and procedures evidence set theirs unless this is set",
	})
	envRecallFile = declare(Var{
		Name:    "QUERY_RECORDS_RECALL_FILE",
		Default: "<root>/mistakes.jsonl",
		Doc:     "query-records --recall's store; a relative path is taken from the root",
	})
)

// Lookup reads one variable and reports whether it is set: os.LookupEnv in
// the binaries (cli.Env), a map in tests.
type Lookup = func(string) (string, bool)

// QueryRecords is query-records' setting, as the environment gives it
// (QUERY_RECORDS_K_FLOOR is accepted and ignored, so it has no field).
type QueryRecords struct {
	// Limit is $QUERY_RECORDS_LIMIT and LimitSet whether it is set: set
	// but empty is a limit of "" (which the command reads as 0).
	Limit    string
	LimitSet bool
	// RelRatio is $QUERY_RECORDS_REL_RATIO; "" is none.
	RelRatio string
	// RecallFile is $QUERY_RECORDS_RECALL_FILE; "" is <root>/mistakes.jsonl.
	RecallFile string
}

// QueryRecordsFrom reads query-records' setting; nil lookup reads nothing.
func QueryRecordsFrom(lookup Lookup) QueryRecords {
	var q QueryRecords
	if lookup == nil {
		return q
	}
	q.Limit, q.LimitSet = lookup(envLimit.Name)
	q.RelRatio, _ = lookup(envRelRatio.Name)
	q.RecallFile, _ = lookup(envRecallFile.Name)
	return q
}

// HomeSet reports whether HOME is set (even empty): query-records refuses
// to fall back to $HOME/.claude when it is not.
func HomeSet(lookup Lookup) bool {
	_, ok := lookup(Home)
	return ok
}

// GCSet reports whether GOGC is set (to anything but empty), so that a
// command leaves the collector target the runtime took from it.
func GCSet(getenv Getenv) bool { return envGOGC.get(getenv) != "" }

// MemLimitSet reports whether GOMEMLIMIT is set (to anything but empty),
// so that a command leaves the limit the runtime took from it.
func MemLimitSet(getenv Getenv) bool { return envGOMEMLIMIT.get(getenv) != "" }
