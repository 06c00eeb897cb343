//go:build !windows

package fsx

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/google/renameio/v2"
)

// CreateExclusive writes data to a new file in dir and never replaces an
// existing one, even against a concurrent writer. The data goes to a
// fsynced temporary file in dir, which is then hard-linked to
// filepath.Join(dir, name()): the link fails if that exists, and then (up
// to o.Attempts names) name is called again. Where the file system has no
// hard links, see [File.Reserve]. The temporary file is removed whatever
// happens. It returns the base name published; a name that still existed
// after the last attempt is a *StepError matching fs.ErrExist.
func (o File) CreateExclusive(dir string, name func() string, data []byte) (string, error) {
	first := name()
	pf, err := o.pending(dir, first, data)
	if err != nil {
		return "", err
	}
	cleanup := true
	defer func() {
		if cleanup {
			pf.Cleanup()
		}
	}()
	link := o.Link
	if link == nil {
		link = os.Link
	}
	for i := range o.attempts() {
		base := first
		if i > 0 {
			base = name()
		}
		final := filepath.Join(dir, base)
		err := link(pf.Name(), final)
		switch {
		case err == nil:
			return base, nil
		case errors.Is(err, fs.ErrExist):
			if i == o.attempts()-1 {
				return "", stepErr("publish", final, err)
			}
			continue
		case !noLinks(err):
			return "", stepErr("publish", final, err)
		case !o.Reserve:
			if err := o.createInPlace(final, data); err != nil {
				if errors.Is(err, fs.ErrExist) && i < o.attempts()-1 {
					continue
				}
				return "", err
			}
			return base, nil
		}
		// No hard links: reserve the name, then rename over the
		// reservation (ours, empty).
		r, err := os.OpenFile(final, os.O_WRONLY|os.O_CREATE|os.O_EXCL, o.Perm)
		if errors.Is(err, fs.ErrExist) && i < o.attempts()-1 {
			continue
		}
		if err != nil {
			return "", stepErr("publish", final, err)
		}
		r.Close()
		if err := pf.File.Close(); err != nil {
			os.Remove(final)
			return "", stepErr("publish", final, err)
		}
		cleanup = false // closed; renamed, or removed here
		if err := os.Rename(pf.Name(), final); err != nil {
			os.Remove(pf.Name())
			os.Remove(final)
			return "", stepErr("publish", final, err)
		}
		return base, nil
	}
	panic("unreachable")
}

// noLinks reports an error a file system answers a link(2) with when it
// has no hard links (or none here).
func noLinks(err error) bool {
	for _, errno := range []error{syscall.EPERM, syscall.ENOTSUP, syscall.EOPNOTSUPP, syscall.EMLINK, syscall.ENOSYS, syscall.EXDEV} {
		if errors.Is(err, errno) {
			return true
		}
	}
	return false
}

// Replace writes data to path atomically: a fsynced temporary file in the
// same directory is renamed over path, so path holds either its old content
// or data, never a part of it.
func (o File) Replace(path string, data []byte) error {
	o.Temp = "" // the pending file's name is the one it replaces
	pf, err := o.pending(filepath.Dir(path), filepath.Base(path), data)
	if err != nil {
		return err
	}
	defer pf.Cleanup()
	if err := pf.CloseAtomicallyReplace(); err != nil {
		return stepErr("publish", path, err)
	}
	return nil
}

// pending writes data to a fsynced renameio pending file in dir for the
// final name base.
func (o *File) pending(dir, base string, data []byte) (*renameio.PendingFile, error) {
	temp := o.Temp
	if temp == "" {
		temp = base
	}
	opts := []renameio.Option{renameio.WithTempDir(dir)}
	if o.StaticPerm {
		opts = append(opts, renameio.WithStaticPermissions(o.Perm))
	} else {
		opts = append(opts, renameio.WithPermissions(o.Perm))
	}
	if o.KeepPerm {
		opts = append(opts, renameio.WithExistingPermissions())
	}
	pf, err := renameio.NewPendingFile(filepath.Join(dir, temp), opts...)
	if err != nil {
		return nil, stepErr("create", dir, err)
	}
	if _, err := o.write(pf.File, data); err != nil {
		pf.Cleanup()
		return nil, stepErr("write", pf.Name(), err)
	}
	if err := pf.Sync(); err != nil {
		pf.Cleanup()
		return nil, stepErr("write", pf.Name(), err)
	}
	return pf, nil
}
