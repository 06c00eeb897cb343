// Package corpus is the record engine behind the public records package and
// the record commands: the store lists, the scan of a corpus root, each
// record's query fields and gloss (its frontmatter read by
// internal/frontmatter), structural and ranked keyword queries
// ([Corpus.Query], and [Corpus.QueryCached] over the index's [MetaCache]),
// and the store-bounded dump of named records ([Corpus.Cat], with
// [OpenIdentified] for --cat and --full). The frontmatter lint
// (internal/lint) reads records through it; the recall search over
// mistakes.jsonl is internal/recall.
//
// Errors are one line and match [ErrUsage] or [ErrScan] with errors.Is, the
// two classes query-records maps to its exit codes (internal/recall's errors
// use them too); records converts them to its own types.
//
// Cost is bounded whatever the corpus holds. Queries and lints read a
// record's head only, never more than [MaxFrontmatter] (1 MiB): a record
// whose frontmatter does not close within it matches no query and is a lint
// finding. [Corpus.ReadFile] (hence [Corpus.Cat] and full dumps) refuses a
// record above [MaxDump] (16 MiB) with a *TooLargeError. Records are opened
// without blocking and read only if fstat says regular file, so a FIFO
// swapped in after the scan is an error ([ErrNotRegular]), never a hang.
// Keyword tokens are de-duplicated through a set (linear in a record's
// keywords).
// CRLF line ends are read as LF by queries, as by the lint.
package corpus
