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
//
// Cost is bounded whatever the corpus holds. Queries and lints read a
// record's head only, never more than [MaxFrontmatter] (1 MiB): a record
// whose frontmatter does not close within it matches no query and is a lint
// finding ([RuleTooLong]). [Corpus.ReadFile] (hence [Corpus.Cat] and full
// dumps) refuses a record above [MaxDump] (16 MiB) with a *TooLargeError.
// Records are opened without blocking and read only if fstat says regular
// file, so a FIFO swapped in after the scan is an error ([ErrNotRegular]),
// never a hang. Keyword tokens are de-duplicated through a set (linear in a
// record's keywords); a recall search matches at most [MaxRecallParts] (64)
// words; a lint report can be cut to its first findings
// ([LintResult.WriteCapped]). CRLF line ends are read as LF by queries, as by
// the lint.
package corpus
