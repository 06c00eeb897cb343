// Package records reads a procedures knowledge base: the record stores under
// a corpus root, each record's frontmatter and one-line gloss, structural and
// ranked keyword queries, the dump of named records and the recall search
// over a mistakes.jsonl file.
//
//	c, err := records.Open(root, records.Options{})
//	hits, err := c.Query(records.Query{Keyword: "flaky ci"})
//
// Errors are typed ([*NoRootError], [*ScanError], [*NoTokenError],
// [*CatError], [*TooLargeError], [*RecallPartsError]; match them with
// errors.As); how to word them for a person is the caller's business.
//
// Cost is bounded whatever the corpus holds. Queries and [Corpus.Records]
// read a record's head only, never more than its first MiB: a record whose
// frontmatter does not close within it matches no query. [Corpus.ReadFile]
// (hence [Corpus.Cat]) refuses a record above 16 MiB with a *TooLargeError.
// Records are opened without blocking and read only if fstat says regular
// file, so a FIFO swapped in after the scan is an error ([ErrNotRegular]),
// never a hang. A recall search matches at most 64 words. CRLF line ends are
// read as LF.
//
// The package reads no environment variable: the commands of this module map
// theirs (QUERY_RECORDS_ROOT, QUERY_RECORDS_EXTRA_STORES, …) to [Open]'s
// arguments themselves.
package records
