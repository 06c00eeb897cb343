package recordwrite

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
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
// appended concurrently never interleave. A row longer than MaxRowBytes
// is refused.
func Append(path string, row []byte) error {
	if len(row) > MaxRowBytes {
		return fmt.Errorf("row of %d bytes exceeds the %d-byte cap", len(row), MaxRowBytes)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
	if err != nil {
		return err
	}
	n, err := appendWrite(f, row)
	if err == nil && n != len(row) {
		err = io.ErrShortWrite
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// appendWrite is the one write of Append (a seam for tests).
var appendWrite = func(w io.Writer, b []byte) (int, error) { return w.Write(b) }
