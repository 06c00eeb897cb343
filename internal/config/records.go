package config

import (
	"strings"

	"github.com/procedures-go/procedures/internal/corpus"
)

// The record commands' variables: QUERY_RECORDS_ROOT (query-records),
// LINT_FRONTMATTER_ROOT (lint-frontmatter) and KNOWLEDGE_ROOT
// (enforce-frontmatter) name the corpus root, else CODEX_ROOT, else
// $HOME/.claude; QUERY_RECORDS_EXTRA_STORES adds stores to every command's
// scan surface. The constants are the names [RecordsRoot] takes.
const (
	QueryRecordsRoot    = "QUERY_RECORDS_ROOT"
	LintFrontmatterRoot = "LINT_FRONTMATTER_ROOT"
	KnowledgeRoot       = "KNOWLEDGE_ROOT"
	ExtraStoresVar      = "QUERY_RECORDS_EXTRA_STORES"
	// CodexRoot and Home are the shared root and the last resort.
	CodexRoot = "CODEX_ROOT"
	Home      = "HOME"
)

var (
	_ = declare(Var{Name: QueryRecordsRoot, Default: "$CODEX_ROOT, else $HOME/.claude", Doc: "query-records' corpus root"})
	_ = declare(Var{Name: LintFrontmatterRoot, Default: "$CODEX_ROOT, else $HOME/.claude", Doc: "lint-frontmatter's corpus root"})
	_ = declare(Var{Name: KnowledgeRoot, Default: "$CODEX_ROOT, else $HOME/.claude", Doc: "the root whose records enforce-frontmatter checks"})
	_ = declare(Var{Name: CodexRoot, Default: "$HOME/.claude", Doc: "the shared corpus root, after each command's own variable"})
	_ = declare(Var{Name: Home, Default: "(none)", Doc: "$HOME/.claude is the last-resort corpus root"})
	_ = declare(Var{Name: ExtraStoresVar, Default: "(none)", Doc: "extra store paths relative to the root, whitespace-separated; absolute, .. and glob entries are refused"})
)

// RecordsRoot returns the corpus root the way the commands find it: the
// value of the variable primary (QueryRecordsRoot, LintFrontmatterRoot or
// KnowledgeRoot; "" for none), else $CODEX_ROOT, else $HOME/.claude. An
// empty variable counts as unset; an unset HOME gives "/.claude" (a caller
// that must refuse it checks HOME itself).
func RecordsRoot(getenv func(string) string, primary string) string {
	if primary != "" {
		if root := getenv(primary); root != "" {
			return root
		}
	}
	if root := getenv(CodexRoot); root != "" {
		return root
	}
	return getenv(Home) + "/.claude"
}

// RecordStores returns the commands' scan surface: the default stores
// ([corpus.DefaultStores]: the record stores, then the vendor stores), then
// the valid entries of $QUERY_RECORDS_EXTRA_STORES (see [ExtraStores]), and
// the rejected entries, in order, for the caller to warn about.
func RecordStores(getenv func(string) string) (stores, rejected []string) {
	valid, rejected := ExtraStores(getenv(ExtraStoresVar))
	return append(corpus.DefaultStores(), valid...), rejected
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
		if invalidExtraStore(e) {
			rejected = append(rejected, e)
		} else {
			valid = append(valid, e)
		}
	}
	return valid, rejected
}

// invalidExtraStore reports whether an extra-store entry is refused.
func invalidExtraStore(e string) bool {
	return strings.HasPrefix(e, "/") || strings.Contains(e, "..") ||
		strings.ContainsAny(e, "*?[")
}
