package records

import (
	"errors"
	"io/fs"
	"strings"
)

// ErrUsage matches (with errors.Is) every error caused by what the caller
// asked for: query-records exits 2 on it.
var ErrUsage = errors.New("usage error")

// ErrScan matches (with errors.Is) every error that means the corpus or the
// recall store could not be read: query-records exits 3 on it. It is never
// "no matches".
var ErrScan = errors.New("scan failed")

// UsageError is a refusal of the request. Lines are the messages, without
// the "query-records: " prefix.
type UsageError struct{ Lines []string }

func (e *UsageError) Error() string        { return strings.Join(e.Lines, "\n") }
func (e *UsageError) Is(target error) bool { return target == ErrUsage }
func (e *UsageError) messages() []string   { return e.Lines }

// MessageLines returns the messages of err one per element, without the
// "query-records: " prefix. A value substituted into a message (a flag, a
// path, a search term) is kept whole even when it holds an LF, so a caller
// printing one prefixed line per element writes the raw bytes the upstream
// tool wrote. For errors of other packages it splits Error() on LF.
func MessageLines(err error) []string {
	var m interface{ messages() []string }
	if errors.As(err, &m) {
		return m.messages()
	}
	return strings.Split(err.Error(), "\n")
}

// CatError refuses a --cat batch: Refs are the references that are not
// records of the scanned stores, in input order ("(empty)" for an empty
// one); IDLike is set when one of them looks like a record id.
type CatError struct {
	Refs   []string
	IDLike bool
}

func (e *CatError) Error() string { return strings.Join(e.messages(), "\n") }

func (e *CatError) messages() []string {
	var out []string
	for _, r := range e.Refs {
		out = append(out, "--cat: not a record in the scanned stores: "+r)
	}
	out = append(out, "--cat reads only records the same scan returns (see --list-stores); nothing was dumped.")
	if e.IDLike {
		out = append(out, "--cat takes record PATHS. To fetch by record id, use: --id <id> --full")
	}
	return out
}

func (e *CatError) Is(target error) bool { return target == ErrUsage }

// ScanError reports a corpus file that could not be read. Path is relative
// to the root.
type ScanError struct {
	Path string
	Err  error
}

func (e *ScanError) Error() string { return strings.Join(e.messages(), "\n") }

func (e *ScanError) messages() []string {
	if tl, ok := errors.AsType[*TooLargeError](e.Err); ok {
		return tl.messages() // a refusal, not a failed scan
	}
	return []string{"cannot read " + e.Path + ": " + errText(e.Err),
		"record scan failed (awk unusable or lib missing) — NOT 'no matches'"}
}
func (e *ScanError) Unwrap() error        { return e.Err }
func (e *ScanError) Is(target error) bool { return target == ErrScan }

// RecallStoreError reports a recall store that is missing or not a regular
// file. File is the path as configured.
type RecallStoreError struct{ File string }

func (e *RecallStoreError) Error() string { return e.messages()[0] }

func (e *RecallStoreError) messages() []string {
	return []string{"recall store not found: " + e.File + " — NOT 'no matches'"}
}
func (e *RecallStoreError) Is(target error) bool { return target == ErrScan }

// RecallScanError reports a recall store that exists but cannot be read.
type RecallScanError struct {
	File string
	Err  error
}

func (e *RecallScanError) Error() string { return strings.Join(e.messages(), "\n") }

func (e *RecallScanError) messages() []string {
	return []string{"cannot read " + e.File + ": " + errText(e.Err),
		"recall scan failed (awk unusable or lib missing) — NOT 'no matches'"}
}
func (e *RecallScanError) Unwrap() error        { return e.Err }
func (e *RecallScanError) Is(target error) bool { return target == ErrScan }

// NoRootError reports a corpus root that cannot be entered (missing, not a
// directory, no permission). query-records treats it as an empty result.
type NoRootError struct {
	Root string
	Err  error
}

func (e *NoRootError) Error() string { return e.messages()[0] }

func (e *NoRootError) messages() []string {
	return []string{"cannot enter corpus root " + e.Root + ": " + errText(e.Err)}
}
func (e *NoRootError) Unwrap() error { return e.Err }

// errText is an error's text without the operation and path that an
// *fs.PathError repeats.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
