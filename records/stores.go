package records

import "strings"

// RecordStores are the ten record stores, relative to the corpus root, in
// the order --list-stores prints them. Treat it as read-only; [Stores]
// returns a copy.
var RecordStores = []string{
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

// RuleStores are the four record stores that hold rules.
var RuleStores = []string{
	"references/invariants",
	"references/principles",
	"references/policies",
	"references/standards",
}

// Stores returns the ten record stores in --list-stores order.
func Stores() []string { return append([]string(nil), RecordStores...) }

// VendorStores returns the vendor stores scanned after the record stores
// (just "titw", often a symlink to a directory outside the root).
func VendorStores() []string { return []string{"titw"} }

// StorePaths and StoreNames are the record stores joined with "|": the full
// relative paths, and their basenames. The upstream shell library derives
// them for other tools; queries do not use them.
func StorePaths() string { return strings.Join(RecordStores, "|") }

// StoreNames returns the basenames of the record stores joined with "|".
func StoreNames() string {
	names := make([]string, len(RecordStores))
	for i, s := range RecordStores {
		names[i] = s[strings.LastIndexByte(s, '/')+1:]
	}
	return strings.Join(names, "|")
}

// ExtraStores splits the value of QUERY_RECORDS_EXTRA_STORES on runs of
// space, TAB and LF and validates each entry. An entry is rejected when it
// starts with "/", contains "..", or contains one of "*", "?", "[". Valid
// entries keep their order and spelling (duplicates and overlaps included);
// rejected ones are returned in order for the caller to warn about.
func ExtraStores(env string) (valid, rejected []string) {
	for _, e := range strings.FieldsFunc(env, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n'
	}) {
		if InvalidExtraStore(e) {
			rejected = append(rejected, e)
		} else {
			valid = append(valid, e)
		}
	}
	return valid, rejected
}

// InvalidExtraStore reports whether an extra-store entry is refused.
func InvalidExtraStore(e string) bool {
	return strings.HasPrefix(e, "/") || strings.Contains(e, "..") ||
		strings.ContainsAny(e, "*?[")
}

// AllStores returns the scan surface for an extra-stores value: the record
// stores, the vendor stores, then the valid extra entries.
func AllStores(extraEnv string) (stores, rejected []string) {
	valid, rejected := ExtraStores(extraEnv)
	stores = append(Stores(), VendorStores()...)
	return append(stores, valid...), rejected
}
