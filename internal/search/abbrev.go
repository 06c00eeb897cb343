package search

import (
	"bytes"
	"fmt"
	"strings"
)

// DefaultAbbreviations returns the short forms every search expands, on
// the query's side and the record's alike: a record that says "PR" is
// found by "pull request", and one that says "pull request" by "PR".
func DefaultAbbreviations() map[string]string {
	m := make(map[string]string, len(defaultAbbreviations))
	for _, a := range defaultAbbreviations {
		m[a[0]] = a[1]
	}
	return m
}

// defaultAbbreviations is static data (no allocation at start-up).
var defaultAbbreviations = [...][2]string{
	{"pr", "pull request"},
	{"prs", "pull requests"},
	{"repo", "repository"},
	{"repos", "repositories"},
	{"org", "organization"},
	{"orgs", "organizations"},
	{"env", "environment"},
	{"config", "configuration"},
	{"cfg", "configuration"},
	{"conf", "configuration"},
	{"auth", "authentication"},
	{"db", "database"},
	{"dir", "directory"},
	{"dirs", "directories"},
	{"doc", "documentation"},
	{"docs", "documentation"},
	{"pkg", "package"},
	{"dep", "dependency"},
	{"deps", "dependencies"},
	{"arg", "argument"},
	{"args", "arguments"},
	{"param", "parameter"},
	{"params", "parameters"},
	{"var", "variable"},
	{"vars", "variables"},
	{"func", "function"},
	{"fn", "function"},
	{"impl", "implementation"},
	{"info", "information"},
	{"perf", "performance"},
	{"msg", "message"},
	{"img", "image"},
	{"tmp", "temporary"},
	{"dev", "development"},
	{"prod", "production"},
	{"ci", "continuous integration"},
	{"cli", "command line"},
	{"k8s", "kubernetes"},
	{"i18n", "internationalization"},
	{"l10n", "localization"},
	{"js", "javascript"},
	{"ts", "typescript"},
	{"py", "python"},
	{"gh", "github"},
	{"admin", "administrator"},
	{"app", "application"},
	{"src", "source"},
	{"ref", "reference"},
	{"spec", "specification"},
	{"regex", "regular expression"},
	{"regexp", "regular expression"},
}

// AbbreviationsFile is the name of a store's own abbreviation list, at the
// corpus root: one "short: expansion words" per line; blank lines and lines
// starting with "#" are skipped.
const AbbreviationsFile = "search-abbreviations.txt"

// Caps of an abbreviation list: the bytes read and the entries kept.
const (
	MaxAbbreviationsBytes   = 64 << 10
	MaxAbbreviationsEntries = 1000
)

// ParseAbbreviations reads an abbreviation list (see [AbbreviationsFile]).
// It fails, naming the line, on a line without ":" or with an empty side,
// or beyond [MaxAbbreviationsEntries] entries.
func ParseAbbreviations(b []byte) (map[string]string, error) {
	if len(b) > MaxAbbreviationsBytes {
		return nil, fmt.Errorf("above the %d-byte cap", MaxAbbreviationsBytes)
	}
	out := map[string]string{}
	for n, line := range bytes.Split(b, []byte("\n")) {
		s := strings.TrimSpace(string(line))
		if s == "" || s[0] == '#' {
			continue
		}
		short, long, ok := strings.Cut(s, ":")
		short, long = strings.TrimSpace(short), strings.TrimSpace(long)
		if !ok || short == "" || long == "" || strings.ContainsFunc(short, func(r rune) bool { return !isWordRune(r) }) {
			return nil, fmt.Errorf("line %d: want \"short: expansion words\", got %q", n+1, s)
		}
		if len(out) == MaxAbbreviationsEntries {
			return nil, fmt.Errorf("more than %d entries", MaxAbbreviationsEntries)
		}
		out[short] = long
	}
	return out, nil
}
