// Package frontmatter reads a record's frontmatter: the block between a
// first line exactly "---" and the next such line, decoded as YAML into its
// top-level keys ([Parse], and [Read] into a reusable [Fields] for a scan).
//
// The fence rules are the upstream shell tools' (no CRLF, no blank line
// before the opening fence, an unclosed block runs to the end of the file),
// and a block that is not a YAML mapping, or that hides a column-0 "key:"
// line inside a value spanning lines, is read line by line as those tools
// read it ([Frontmatter.YAMLErr] says why), so nothing they could find is
// lost. Blocks in the small YAML subset record writers produce are read
// without a YAML decoder; everything else goes through
// github.com/adrg/frontmatter and go.yaml.in/yaml/v3, and the two agree
// field for field (TestFastPathMatchesLibrary, FuzzSimpleMatchesYAML).
//
// Cost is linear in the block; alias expansion is capped at 10,000 nodes
// (a block above is a [YAMLError]). Callers bound what they read
// (internal/corpus reads at most 1 MiB of a record's head).
package frontmatter
