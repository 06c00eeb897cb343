package recordwrite

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/procedures-go/procedures/internal/fsx"
	"github.com/procedures-go/procedures/internal/wholerow"
)

// file is how record files are written: mode 0666 less the umask, an
// existing file's mode kept on a rewrite, written in place where the file
// system has no hard links (see [fsx.File]).
var file = fsx.File{Perm: 0o666, KeepPerm: true}

// Create writes data to a new file at path and never replaces an existing
// one, even against a concurrent writer: the data goes to a fsynced
// temporary file in the same directory, which is then hard-linked to path
// (the link fails if path exists). Where hard links are not supported, path
// is created exclusively and written in place (so on Windows, not
// atomically). An existing path is reported as an error matching
// fs.ErrExist.
func Create(path string, data []byte) error {
	dir, base := filepath.Split(path)
	_, err := file.CreateExclusive(filepath.Clean(dir), func() string { return base }, data)
	return stepless(err)
}

// Replace writes data to path atomically: a fsynced temporary file in the
// same directory is renamed over path, so path holds either its old content
// or data, never a part of it (on Windows the rename is not guaranteed
// atomic). An existing file keeps its permissions.
func Replace(path string, data []byte) error { return stepless(file.Replace(path, data)) }

// stepless returns the underlying error of an fsx step, as the commands
// print it.
func stepless(err error) error {
	if se, ok := errors.AsType[*fsx.StepError](err); ok {
		return se.Err
	}
	return err
}

// Append appends row to the file at path, creating it and its parent
// directories, with exactly one write on an O_APPEND descriptor, so rows
// appended concurrently never interleave. The row is written whole or not
// at all and never joins a partial row at the end of the file
// (internal/wholerow). The open never waits (a FIFO is refused, not
// waited on) and only a regular file is written. A row longer than
// MaxRowBytes is refused.
func Append(path string, row []byte) error {
	if len(row) > MaxRowBytes {
		return fmt.Errorf("row of %d bytes exceeds the %d-byte cap", len(row), MaxRowBytes)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|fsx.NonBlock, 0o666)
	if err != nil {
		return err
	}
	err = fsx.Regular(f)
	if err == nil {
		err = appendWrite(f, row)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// OpenRegular opens path for reading without waiting (a FIFO without a
// writer does not block the open) and refuses anything but a regular file
// ([fsx.OpenRegular]).
func OpenRegular(path string) (*os.File, error) { return fsx.OpenRegular(path) }

// appendWrite is the one write of Append (a seam for tests).
var appendWrite = wholerow.Append
