// Package recall searches a mistakes.jsonl store, the log of past mistakes
// that `query-records --recall` reads: [Terms] tokenises the search text,
// [Search] and [File] return the matching lines unchanged and in file order,
// and [Match] decides one line.
//
// A line matches a term when one of its text fields ([Fields]) holds the
// term's words in order, as whole words, ignoring ASCII case; a field's
// value is the string after the leftmost `"name":` in the line (JSON
// escapes decoded), not a full JSON decoding. Cost is bounded: a search matches at most
// [MaxParts] (64) words in total, checked before anything is read (a
// *[PartsError], which matches corpus.ErrUsage), so work is linear in the
// store. A file that cannot be read is a *corpus.ScanError (corpus.ErrScan).
package recall
