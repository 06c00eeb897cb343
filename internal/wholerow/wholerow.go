// Package wholerow appends one JSONL row to an open file so that a reader
// never sees a partial row glued to the next one.
package wholerow

import (
	"io"
	"os"
)

// Append writes row (one whole line, ending in '\n') to f, an O_APPEND
// descriptor, with a single write call, so concurrent appenders
// never interleave within a row. For a regular file it also guarantees:
//
// a row is written whole or not at all: after a short write (a file-size
// limit, a full disk) the file is truncated back to its size before the
// write, so the next row does not join a partial one. The truncation is
// skipped when the file grew by more than the partial write (another
// appender's row already follows it and must not be cut).
//
// Decided against: starting a row with '\n' when the file does not end in
// one. A reader does not take the writers' inode lock, so a concurrent
// appender's row still being copied looks like a partial row, and the
// repair would add blank lines under ordinary concurrency.
//
// Other file types (a FIFO with a reader, a terminal) get the single write
// only.
func Append(f *os.File, row []byte) error {
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		n, err := writeOnce(f, row)
		return short(n, err, len(row))
	}
	before := fi.Size()
	n, err := writeOnce(f, row)
	if err == nil && n == len(row) {
		return nil
	}
	if n > 0 {
		if after, serr := f.Stat(); serr == nil && after.Size() == before+int64(n) {
			f.Truncate(before)
		}
	}
	return short(n, err, len(row))
}

// short turns a write that stopped early without an error into one.
func short(n int, err error, want int) error {
	if err == nil && n != want {
		err = io.ErrShortWrite
	}
	return err
}
