// Package records reads the procedures knowledge base: the record stores under
// a corpus root, each record's frontmatter and gloss, structural and ranked
// keyword queries, the store-bounded --cat dump and the --recall search over
// mistakes.jsonl, byte for byte as query-records does. It also lints record
// frontmatter ([LintCorpus], [LintTargets]) as lint-frontmatter and the
// enforce-frontmatter hook do, with the same parser ([ParseFrontmatter]).
//
// Cost is bounded whatever the corpus holds. Queries and lints read a
// record's head only, never more than [MaxFrontmatter] (1 MiB): a record
// whose frontmatter does not close within it matches no query and is a lint
// finding ([RuleTooLong]). [Corpus.ReadFile] (hence --cat and --full)
// refuses a record above [MaxDump] (16 MiB) with a *TooLargeError. Records
// are opened without blocking and read only if fstat says regular file, so
// a FIFO swapped in after the scan is an error ([ErrNotRegular]), never a
// hang. Keyword tokens are de-duplicated through a set (linear in a
// record's keywords); a recall search matches at most [MaxRecallParts] (64)
// words; the enforce-frontmatter hook shows at most [MaxShownFindings] (50)
// findings ([LintResult.WriteCapped]). CRLF line ends are read as LF by
// queries, as by the lint.
package records
