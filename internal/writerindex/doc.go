// Package writerindex is the writers' index: the cache that serves
// enforce-frontmatter and log-record, which ask the corpus only "which records declare this id?" for a handful of ids.
// It is a second file next to the query index, <hash>.wdx, keyed by the
// resolved root and the ten record stores, holding for every directory the
// lint walks its stat and its subdirectories, and for every record the lint
// checks its stat and the id the lint maps it under. A writer validates
// only what it consults:
//
//   - every recorded directory is stat-ed; one whose stat differs from the
//     stored one (a racy stat is stored smudged, see cachefile.Judge), is listed again, and
//     of its names only the new ones and those now naming another inode are
//     stat-ed and read (a directory that is another directory now, or a
//     new subdirectory, is walked whole);
//   - every record whose recorded id is one the writer asks about is
//     stat-ed, and read again when its stat differs from the stored one.
//
// A record edited in place (same name, same inode) to declare an id it did
// not declare is therefore not seen by a writer asking about that id until
// a query (which stats every file) or a writer consulting it reads it
// again: query-records re-reads, in the writers' index, every record whose
// stat it found changed.
//
// It holds the index's type, the walk of the record stores, the id
// resolver a lint asks ([Index.Resolve], as lint.LintTargetsWith takes it)
// and the file format; it never runs the lint. The file lives in the cache
// directory and follows its trust, racy-clean and eviction rules (see
// internal/cachefile).
package writerindex
