// Package search is the free-text ranking behind query-records --search
// and records.Corpus.Search: an analyzer that turns text into terms, and a
// field-weighted BM25 (BM25F) over four fields of a record.
//
// Both sides, the query and every record, go through the same [Analyzer]:
// text is split on every rune that is not a letter or a digit, lowered,
// stripped of the common Latin accents, and a camel-cased word also yields
// its parts ("TrimSuffix": trimsuffix, trim, suffix). English stop words are
// dropped (unless a query holds nothing else), a term listed as an
// abbreviation also yields its expansion ([DefaultAbbreviations], plus a
// store's own list: see [ParseAbbreviations]), and every term is stemmed
// with the Snowball English stemmer.
//
// The fields are the record's title (its gloss), its keywords, its name
// (id and path words) and its body; [Weights] and [B] are their BM25F
// parameters. A [Matcher] is made for one query: it keeps, of each record,
// only the field lengths and the frequencies of the query's terms, so a
// search holds a few words per record however large the corpus. A query
// term that no record holds is replaced by the record terms within a small
// edit distance of it (the close-spelling fallback), at a lower weight.
package search
