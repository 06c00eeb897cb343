package queryrecords

import (
	"errors"
	"strconv"
	"strings"

	"github.com/procedures-go/procedures/internal/corpus"
	recallsearch "github.com/procedures-go/procedures/internal/recall"
)

// usageError is a refusal of the request. lines are the messages, without
// the "query-records: " prefix.
type usageError struct{ lines []string }

func (e *usageError) Error() string        { return strings.Join(e.lines, "\n") }
func (e *usageError) Is(target error) bool { return target == corpus.ErrUsage }

func usage(lines ...string) error { return &usageError{lines: lines} }

// noTokenLines refuse a search text with no token long enough: flag is
// --keyword or --recall.
func noTokenLines(flag, text string) []string {
	return []string{flag + ` "` + text + `" has no token of 2+ characters — nothing to search.`,
		"this is NOT 'no matches'. Tokens shorter than 2 characters are dropped; use a longer term."}
}

// recallStoreError reports a recall store that is missing or not a regular
// file; shown is the path as configured.
type recallStoreError struct{ shown string }

func (e *recallStoreError) Error() string        { return "recall store not found: " + e.shown }
func (e *recallStoreError) Is(target error) bool { return target == corpus.ErrScan }

// recallScanError reports a recall store that exists but cannot be read.
type recallScanError struct {
	shown string
	err   *corpus.ScanError
}

func (e *recallScanError) Error() string { return "cannot read " + e.shown + ": " + e.err.Reason() }
func (e *recallScanError) Unwrap() error { return e.err }

type noHomeError struct{}

func (*noHomeError) Error() string {
	return "HOME is not set, and neither QUERY_RECORDS_ROOT nor CODEX_ROOT is"
}

// messageLines returns the messages query-records prints for err, one per
// element, without the "query-records: " prefix. A value substituted into a
// message (a flag, a path, a search term) is kept whole even when it holds
// an LF: the prefix starts each message, not each line of a value.
func messageLines(err error) []string {
	if e, ok := errors.AsType[*usageError](err); ok {
		return e.lines
	}
	if e, ok := errors.AsType[*corpus.NoTokenError](err); ok {
		return noTokenLines("--keyword", e.Keyword)
	}
	if e, ok := errors.AsType[*corpus.CatError](err); ok {
		return catErrorLines(e.Refs)
	}
	if e, ok := errors.AsType[*recallStoreError](err); ok {
		return []string{e.Error() + " — NOT 'no matches'"}
	}
	if e, ok := errors.AsType[*recallScanError](err); ok {
		return []string{e.Error(), "recall scan failed (awk unusable or lib missing) — NOT 'no matches'"}
	}
	if e, ok := errors.AsType[*corpus.TooLargeError](err); ok {
		return []string{e.Error() + " — nothing was dumped"} // a refusal, not a failed scan
	}
	if e, ok := errors.AsType[*recallsearch.PartsError](err); ok {
		return []string{"--recall has " + strconv.Itoa(e.Words) + " words to match; at most " + strconv.Itoa(recallsearch.MaxParts) +
			" are allowed — nothing was searched.", "this is NOT 'no matches'. Search with fewer or shorter phrases."}
	}
	if e, ok := errors.AsType[*corpus.ScanError](err); ok {
		return []string{e.Error(), "record scan failed (awk unusable or lib missing) — NOT 'no matches'"}
	}
	if e, ok := errors.AsType[*corpus.NoRootError](err); ok {
		return []string{e.Error()}
	}
	return strings.Split(err.Error(), "\n")
}

// catErrorLines refuse a --cat batch: one line per reference that is not a
// record ("(empty)" for an empty one), the rule, and a hint when one of them
// looks like a record id.
func catErrorLines(refs []string) []string {
	var out []string
	idLike := false
	for _, r := range refs {
		idLike = idLike || isIDLike(r)
		if r == "" {
			r = "(empty)"
		}
		out = append(out, "--cat: not a record in the scanned stores: "+r)
	}
	out = append(out, "--cat reads only records the same scan returns (see --list-stores); nothing was dumped.")
	if idLike {
		out = append(out, "--cat takes record PATHS. To fetch by record id, use: --id <id> --full")
	}
	return out
}

// isIDLike reports whether a bad --cat reference looks like a record id: no
// "/", no ".md" suffix, but a ".".
func isIDLike(ref string) bool {
	return !strings.Contains(ref, "/") && !strings.HasSuffix(ref, ".md") && strings.Contains(ref, ".")
}

// catRefs expands --cat arguments into references: an argument holding LF
// is split on LF with empty pieces dropped; any other argument (the empty
// string included) is one reference. When nothing is left, the result is
// one empty reference.
func catRefs(args []string) []string {
	var refs []string
	for _, a := range args {
		if !strings.Contains(a, "\n") {
			refs = append(refs, a)
			continue
		}
		for p := range strings.SplitSeq(a, "\n") {
			if p != "" {
				refs = append(refs, p)
			}
		}
	}
	if len(refs) == 0 {
		refs = []string{""}
	}
	return refs
}

// appendDump appends the dump block of one record to dst: nothing for empty
// content, else LF, "==> path <==", LF, the content, and an LF if the content
// did not end with one.
func appendDump(dst []byte, d corpus.Dump) []byte {
	if len(d.Content) == 0 {
		return dst
	}
	dst = append(dst, "\n==> "...)
	dst = append(dst, d.Path...)
	dst = append(dst, " <==\n"...)
	dst = append(dst, d.Content...)
	if d.Content[len(d.Content)-1] != '\n' {
		dst = append(dst, '\n')
	}
	return dst
}
