// Package records reads the procedures knowledge base: the record stores under
// a corpus root, each record's frontmatter and gloss, structural and ranked
// keyword queries, the store-bounded --cat dump and the --recall search over
// mistakes.jsonl, byte for byte as query-records does. It also lints record
// frontmatter ([LintCorpus], [LintTargets]) as lint-frontmatter and the
// enforce-frontmatter hook do, with the same parser ([ParseFrontmatter]).
package records
