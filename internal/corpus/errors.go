package corpus

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"
)

// ErrUsage matches (with errors.Is) every error caused by what the caller
// asked for: a query with nothing to search, references that are not
// records of the corpus.
var ErrUsage = errors.New("usage error")

// ErrScan matches (with errors.Is) every error that means the corpus or the
// recall store could not be read. It never means "no matches".
var ErrScan = errors.New("scan failed")

// NoTokenError refuses a keyword search whose text holds no token of
// [MinTokenLen] or more characters: there is nothing to search.
type NoTokenError struct{ Keyword string }

func (e *NoTokenError) Error() string {
	return "keyword " + strconv.Quote(e.Keyword) + " has no token of " + strconv.Itoa(MinTokenLen) + "+ characters"
}
func (e *NoTokenError) Is(target error) bool { return target == ErrUsage }

// CatError refuses a [Corpus.Cat] batch: Refs are the references that are
// not records of the scanned stores, in input order.
type CatError struct{ Refs []string }

func (e *CatError) Error() string {
	return "not records of the scanned stores: " + strings.Join(quoteAll(e.Refs), ", ")
}
func (e *CatError) Is(target error) bool { return target == ErrUsage }

// ScanError reports a file that could not be read: a corpus record (Path
// relative to the root) or the recall store (Path as given).
type ScanError struct {
	Path string
	Err  error
}

func (e *ScanError) Error() string        { return "cannot read " + e.Path + ": " + e.Reason() }
func (e *ScanError) Unwrap() error        { return e.Err }
func (e *ScanError) Is(target error) bool { return target == ErrScan }

// NoRootError reports a corpus root that cannot be entered (missing, not a
// directory, no permission).
type NoRootError struct {
	Root string
	Err  error
}

func (e *NoRootError) Error() string {
	return "cannot enter corpus root " + e.Root + ": " + errText(e.Err)
}
func (e *NoRootError) Unwrap() error { return e.Err }

// Reason is why the file could not be read, without the operation and path
// an *fs.PathError repeats ("permission denied").
func (e *ScanError) Reason() string { return errText(e.Err) }

// errText is an error's text without the operation and path that an
// *fs.PathError repeats.
func errText(err error) string {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = strconv.Quote(v)
	}
	return out
}
