package records

import (
	"errors"
	"io/fs"

	"github.com/procedures-go/procedures/internal/corpus"
	"github.com/procedures-go/procedures/internal/recall"
)

// ErrNotRegular reports a listed record that is no longer a regular file
// when it is opened (a FIFO or device swapped in after the scan), inside an
// *fs.PathError. It is never waited on.
var ErrNotRegular = errors.New("not a regular file")

// NoRootError reports a corpus root that cannot be entered (missing, not a
// directory, no permission).
type NoRootError struct {
	Root string
	Err  error
}

func (e *NoRootError) Error() string {
	return (&corpus.NoRootError{Root: e.Root, Err: orUnknown(e.Err)}).Error()
}
func (e *NoRootError) Unwrap() error { return e.Err }

// ScanError reports a file that could not be read: a corpus record (Path
// relative to the root) or the recall file (Path as given).
type ScanError struct {
	Path string
	Err  error
}

func (e *ScanError) Error() string {
	return (&corpus.ScanError{Path: e.Path, Err: orUnknown(e.Err)}).Error()
}
func (e *ScanError) Unwrap() error { return e.Err }

// TooLargeError refuses to read a record above 16 MiB whole.
type TooLargeError struct {
	Path string // relative to the root
	Size int64  // the size seen
}

func (e *TooLargeError) Error() string { return (*corpus.TooLargeError)(e).Error() }

// NoTokenError refuses a keyword search whose text holds no token of two or
// more characters: there is nothing to search.
type NoTokenError struct{ Keyword string }

func (e *NoTokenError) Error() string { return (*corpus.NoTokenError)(e).Error() }

// CatError refuses a [Corpus.Cat] batch: Refs are the references that are
// not records of the corpus, in input order.
type CatError struct{ Refs []string }

func (e *CatError) Error() string { return (*corpus.CatError)(e).Error() }

// RecallPartsError refuses recall terms holding more than 64 words in
// total; nothing is searched.
type RecallPartsError struct{ Words int }

func (e *RecallPartsError) Error() string { return (*recall.PartsError)(e).Error() }

func orUnknown(err error) error {
	if err == nil {
		return errors.New("unknown error")
	}
	return err
}

// fromEngine turns the engine's errors into this package's, keeping their
// text and what they wrap.
func fromEngine(err error) error {
	switch e := err.(type) {
	case nil:
		return nil
	case *corpus.NoRootError:
		return &NoRootError{Root: e.Root, Err: fromEngine(e.Err)}
	case *corpus.ScanError:
		return &ScanError{Path: e.Path, Err: fromEngine(e.Err)}
	case *corpus.TooLargeError:
		return (*TooLargeError)(e)
	case *corpus.NoTokenError:
		return (*NoTokenError)(e)
	case *corpus.CatError:
		return (*CatError)(e)
	case *recall.PartsError:
		return (*RecallPartsError)(e)
	case *fs.PathError:
		if e.Err == corpus.ErrNotRegular {
			return &fs.PathError{Op: e.Op, Path: e.Path, Err: ErrNotRegular}
		}
	}
	return err
}
