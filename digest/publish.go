package digest

import (
	"errors"
	"os"
	"time"

	"github.com/procedures-go/procedures/internal/fsx"
)

// Seams for tests: the content write and the hard link.
var (
	writeFile = func(f *os.File, b []byte) (int, error) { return f.Write(b) }
	link      = os.Link
)

// publish writes data to a fsynced temporary file in dir and hard-links it to
// a fresh <key>.digest.<epoch>.<unique> name (EEXIST: draw a new name; no
// hard links: reserve the name and rename over the reservation). The
// temporary file has a short fixed stem, ".digest.tmp" plus digits, so a long
// key does not overflow the name limit and stale leftovers match the reaper's
// *.digest.* pattern; it never starts with a key, so no reader selects it.
func publish(dir, key string, data []byte, now time.Time) (string, error) {
	name, err := fsx.File{Perm: 0o600, StaticPerm: true, Temp: "digest.tmp", Reserve: true,
		Attempts: maxNameAttempts, Write: writeFile, Link: link,
	}.CreateExclusive(dir, func() string { return newName(key, now) }, data)
	if se, ok := errors.AsType[*fsx.StepError](err); ok {
		return "", &WriteError{Op: se.Op, Path: se.Path, Err: se.Err}
	}
	return name, err
}
