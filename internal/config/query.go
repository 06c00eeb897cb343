package config

// The typed settings of the record commands (query-records, log-record,
// enforce-frontmatter, lint-frontmatter): each command's Main reads its
// value here once and passes the parts down, so that nothing below the
// command layer reads the environment.

// Index is the indexes' setting: whether they are turned off
// (PROCEDURES_NO_INDEX, see [IndexOff]) and the directory they are kept in
// ([IndexDir]: "" when none is usable, and then none is kept).
type Index struct {
	Off bool
	Dir string
}

// IndexFrom reads the indexes' setting.
func IndexFrom(getenv Getenv) Index {
	return Index{Off: IndexOff(getenv), Dir: IndexDir(getenv)}
}

// Records is what every record command reads: its corpus root (the value
// of its own variable, else $CODEX_ROOT, else $HOME/.claude: see
// [RecordsRoot]), the scan surface with the rejected extra-store entries
// (see [RecordStores]), and the indexes' setting.
type Records struct {
	Root             string
	Stores, Rejected []string
	Index            Index
}

// RecordsFrom reads a record command's setting; primary is the command's
// own root variable (QueryRecordsRoot, LintFrontmatterRoot or
// KnowledgeRoot; "" for none).
func RecordsFrom(getenv Getenv, primary string) Records {
	r := Records{Root: RecordsRoot(getenv, primary), Index: IndexFrom(getenv)}
	r.Stores, r.Rejected = RecordStores(getenv)
	return r
}

// Query is query-records' whole setting, read once by its Main.
type Query struct {
	Records
	// NoHome: neither QUERY_RECORDS_ROOT nor CODEX_ROOT names a root and
	// HOME is unset (even empty counts as set), so there is no root.
	NoHome bool
	QueryRecords
	// GCSet and MemLimitSet: GOGC and GOMEMLIMIT are set (see [GCSet] and
	// [MemLimitSet]).
	GCSet, MemLimitSet bool
}

// QueryFrom reads query-records' setting; nil lookup reads nothing.
func QueryFrom(lookup Lookup) Query {
	getenv := func(k string) string {
		if lookup == nil {
			return ""
		}
		v, _ := lookup(k)
		return v
	}
	q := Query{Records: RecordsFrom(getenv, QueryRecordsRoot), QueryRecords: QueryRecordsFrom(lookup)}
	q.NoHome = getenv(QueryRecordsRoot) == "" && getenv(CodexRoot) == "" && (lookup == nil || !HomeSet(lookup))
	q.GCSet, q.MemLimitSet = GCSet(getenv), MemLimitSet(getenv)
	return q
}

// Writer is log-record's whole setting, read once by its Main: the record
// root ($CODEX_ROOT, else $HOME/.claude; RootSet is false when neither is
// set, empty counting as unset), its targets and the indexes' setting.
type Writer struct {
	Root    string
	RootSet bool
	Targets LogRecord
	Index   Index
}

// WriterFrom reads log-record's setting.
func WriterFrom(getenv Getenv) Writer {
	w := Writer{Targets: LogRecordFrom(getenv), Index: IndexFrom(getenv)}
	if getenv(CodexRoot) != "" || getenv(Home) != "" {
		w.Root, w.RootSet = RecordsRoot(getenv, ""), true
	}
	return w
}
