package fsx

import (
	"errors"
	"io/fs"
	"os"
)

// ErrNotRegular is returned for a path that is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// OpenRegular opens path for reading without waiting (a FIFO without a
// writer does not block the open) and refuses anything but a regular file
// (ErrNotRegular), checked on the open descriptor.
func OpenRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|NonBlock, 0)
	if err != nil {
		return nil, err
	}
	if err := Regular(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Regular reports ErrNotRegular unless the open file f is a regular file.
func Regular(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return ErrNotRegular
	}
	return nil
}

// File says how a new file is written.
type File struct {
	// Perm is the file's permission bits, less the umask unless StaticPerm.
	Perm fs.FileMode
	// StaticPerm applies Perm exactly, ignoring the umask.
	StaticPerm bool
	// KeepPerm gives a file that already exists under the final name its
	// own permission bits back (Replace).
	KeepPerm bool
	// Temp is the stem of the temporary file's name: it is created in the
	// destination directory as "." + Temp + random digits. "" means the
	// final name's base.
	Temp string
	// Reserve chooses what CreateExclusive does where the file system has
	// no hard links: reserve the final name with O_CREATE|O_EXCL, then
	// rename the written temporary file over that (empty) reservation,
	// which is atomic; otherwise the data is written in place under the
	// exclusively created final name, which is not.
	Reserve bool
	// Attempts bounds how many names CreateExclusive draws after a
	// collision; 0 or 1 means one name, no retry.
	Attempts int

	// Write writes the content to the temporary file; nil means f.Write.
	// Link publishes it; nil means os.Link. They are seams for tests.
	Write func(f *os.File, b []byte) (int, error)
	Link  func(oldname, newname string) error
}

// StepError is a failure of one step of [File.CreateExclusive] or
// [File.Replace]: Op is "create" (the temporary or final file), "write" (the
// content or its fsync) or "publish" (link, reservation or rename); Err is
// the underlying error, unchanged.
type StepError struct {
	Op   string
	Path string
	Err  error
}

func (e *StepError) Error() string { return e.Op + " " + e.Path + ": " + e.Err.Error() }

func (e *StepError) Unwrap() error { return e.Err }

func stepErr(op, path string, err error) error { return &StepError{Op: op, Path: path, Err: err} }

func (o *File) write(f *os.File, b []byte) (int, error) {
	if o.Write != nil {
		return o.Write(f, b)
	}
	return f.Write(b)
}

func (o *File) attempts() int { return max(o.Attempts, 1) }

// writeSyncClose writes data to f, syncs and closes it; the first error
// wins, and f is closed either way.
func (o *File) writeSyncClose(f *os.File, data []byte) error {
	_, err := o.write(f, data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// createInPlace creates path exclusively with o.Perm and writes data into
// it; a failed write removes the file.
func (o *File) createInPlace(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, o.Perm)
	if err != nil {
		return stepErr("create", path, err)
	}
	err = o.writeSyncClose(f, data)
	if err != nil {
		os.Remove(path)
		return stepErr("write", path, err)
	}
	return nil
}
