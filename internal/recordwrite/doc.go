// Package recordwrite renders and stores the records log-record writes: a
// record file (YAML frontmatter then a Markdown body) whose frontmatter reads
// back as exactly the keys and values it was given, and a mistake row (one
// jq-compatible JSON object per line). Record files are published atomically
// and a mistake row is appended with a single write.
package recordwrite
