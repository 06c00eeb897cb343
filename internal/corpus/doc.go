// Package corpus is the record engine behind the public records package and
// the record commands: the store lists, the scan of a corpus root, each
// record's frontmatter and gloss, structural and ranked keyword queries
// ([Corpus.Query], and [Corpus.QueryCached] over the index's [MetaCache]),
// the store-bounded dump of named records ([Corpus.Cat], with
// [OpenIdentified] for --cat and --full) and the recall search over
// mistakes.jsonl ([RecallFile]). The frontmatter lint (internal/lint) reads
// records through it.
//
// Errors are one line and match [ErrUsage] or [ErrScan] with errors.Is, the
// two classes query-records maps to its exit codes; records converts them to
// its own types.
//
// Cost is bounded whatever the corpus holds. Queries and lints read a
// record's head only, never more than [MaxFrontmatter] (1 MiB): a record
// whose frontmatter does not close within it matches no query and is a lint
// finding. [Corpus.ReadFile] (hence [Corpus.Cat] and full dumps) refuses a
// record above [MaxDump] (16 MiB) with a *TooLargeError. Records are opened
// without blocking and read only if fstat says regular file, so a FIFO
// swapped in after the scan is an error ([ErrNotRegular]), never a hang.
// Keyword tokens are de-duplicated through a set (linear in a record's
// keywords); a recall search matches at most [MaxRecallParts] (64) words.
// CRLF line ends are read as LF by queries, as by the lint.
package corpus
