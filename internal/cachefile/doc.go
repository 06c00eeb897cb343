// Package cachefile is what the query index (internal/index) and the
// writers' index (internal/writerindex) share about their files: the
// per-user cache directory they live in and when it may be trusted
// (ours, writable by nobody else, never inside the corpus), the atomic
// replacement and the read or mapping of a file, the eviction that bounds
// the directory, and the racy-clean rule that decides when a stat stored
// in an index may stand for what was read.
package cachefile
