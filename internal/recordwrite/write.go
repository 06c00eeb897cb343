package recordwrite

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/procedures-go/procedures/internal/wholerow"
)

// createInPlace creates path exclusively and writes data into it; a failed
// write removes the file.
func createInPlace(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return err
	}
	if err := writeSyncClose(f, data); err != nil {
		os.Remove(path)
		return err
	}
	return nil
}

// writeSyncClose writes data to f, syncs it and closes it, returning the
// first error.
func writeSyncClose(f *os.File, data []byte) error {
	_, err := f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
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
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|nonblock, 0o666)
	if err != nil {
		return err
	}
	err = regular(f)
	if err == nil {
		err = appendWrite(f, row)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// OpenRegular opens path for reading without waiting (a FIFO without a
// writer does not block the open) and refuses anything but a regular file.
func OpenRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return nil, err
	}
	if err := regular(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ErrNotRegular is returned for a path that is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

func regular(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return ErrNotRegular
	}
	return nil
}

// appendWrite is the one write of Append (a seam for tests).
var appendWrite = wholerow.Append
