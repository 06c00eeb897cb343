package corpus

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

// DefaultStores returns the store list [Open] scans for nil: the record
// stores, then the vendor stores.
func DefaultStores() []string { return append(Stores(), VendorStores()...) }
