// Package shellread decides whether a Bash command line only looks: it
// parses the line with mvdan.cc/sh/v3/syntax (Bash dialect) and accepts it
// only when every command is a known reader used in a read-only way, every
// output redirection goes to /dev/null, and nothing is substituted,
// assigned or defined. Anything it cannot judge is refused.
package shellread
