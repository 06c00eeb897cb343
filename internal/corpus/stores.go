package corpus

import "strings"

// recordStores are the ten record stores, relative to the corpus root, in
// listing order; [Stores] returns a copy.
var recordStores = []string{
	"references/failure-modes",
	"references/decisions",
	"references/solutions",
	"references/procedures",
	"references/research",
	"plans",
	"references/principles",
	"references/invariants",
	"references/policies",
	"references/standards",
}

// Stores returns the ten record stores, relative to the corpus root, in
// listing order.
func Stores() []string { return append([]string(nil), recordStores...) }

// VendorStores returns the vendor stores scanned after the record stores
// (just "titw", often a symlink to a directory outside the root).
func VendorStores() []string { return []string{"titw"} }

// ExtraStores splits the value of QUERY_RECORDS_EXTRA_STORES on runs of
// space, TAB and LF and validates each entry. An entry is rejected when it
// starts with "/", contains "..", or contains one of "*", "?", "[". Valid
// entries keep their order and spelling (duplicates and overlaps included);
// rejected ones are returned in order for the caller to warn about.
func ExtraStores(env string) (valid, rejected []string) {
	for _, e := range strings.FieldsFunc(env, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n'
	}) {
		if invalidExtraStore(e) {
			rejected = append(rejected, e)
		} else {
			valid = append(valid, e)
		}
	}
	return valid, rejected
}

// InvalidExtraStore reports whether an extra-store entry is refused.
func invalidExtraStore(e string) bool {
	return strings.HasPrefix(e, "/") || strings.Contains(e, "..") ||
		strings.ContainsAny(e, "*?[")
}

// AllStores returns the scan surface for an extra-stores value (see
// [ExtraStores]): the record stores, the vendor stores, then the valid extra
// entries. AllStores("") is the default store list [Open] scans for nil.
func AllStores(extraEnv string) (stores, rejected []string) {
	valid, rejected := ExtraStores(extraEnv)
	stores = append(Stores(), VendorStores()...)
	return append(stores, valid...), rejected
}

// RootFromEnv returns the corpus root the way the commands find it: the
// value of the variable primary (QUERY_RECORDS_ROOT, LINT_FRONTMATTER_ROOT
// or KNOWLEDGE_ROOT; "" for none), else $CODEX_ROOT, else $HOME/.claude. An
// empty variable counts as unset; an unset HOME gives "/.claude" (a caller
// that must refuse it checks HOME itself).
func RootFromEnv(getenv func(string) string, primary string) string {
	if primary != "" {
		if root := getenv(primary); root != "" {
			return root
		}
	}
	if root := getenv("CODEX_ROOT"); root != "" {
		return root
	}
	return getenv("HOME") + "/.claude"
}
