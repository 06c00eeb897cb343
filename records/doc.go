// Package records reads the procedures knowledge base: the record stores under
// a corpus root ([RootFromEnv], [AllStores]), each record's frontmatter and
// gloss, structural and ranked keyword queries ([Corpus.Query]), the
// store-bounded dump of named records ([Corpus.Cat]) and the recall search
// over mistakes.jsonl ([RecallFile]).
//
// The frontmatter lint stays in this package rather than a sub-package: it
// is the same reader applied as a schema check ([LintCorpus], [LintTargets],
// and [LintContent] for bytes not yet written), and it shares the parser
// ([ParseFrontmatter]) and the store list with the queries.
//
// Errors are one line and match [ErrUsage] or [ErrScan] with errors.Is; how
// to word them for a user is the caller's business.
package records
