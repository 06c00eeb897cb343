package digest

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Store is a digest directory and its replay and expiry settings.
type Store struct {
	// Dir holds the digests, one file each, no subdirectories. A symlink to a
	// directory is followed.
	Dir string
	// Keep caps how many digests Read replays (the newest); 0 is uncapped.
	Keep int64
	// TTLDays: a digest whose mtime is more than TTLDays whole days old is
	// expired: reaped by the next Write, skipped by Read. NoTTL: never.
	TTLDays int64
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	untrusted error  // set by FromEnv: the turn-state fallback is not private
	fallback  string // set by FromEnv: the turn-state fallback Dir is below
}

// ErrInsecureDir reports a digest directory that is not owned by the current
// user or cannot be made mode 0700; nothing is written into it.
var ErrInsecureDir = errors.New("digest directory is not private to the current user")

// ErrInvalidKey reports a key that Key could not have returned.
var ErrInvalidKey = errors.New("invalid digest key")

// WriteError is a blind failure of Write: the digest could not be persisted.
type WriteError struct {
	Op   string // "mkdir", "secure", "create", "write", "publish"
	Path string
	Err  error
}

func (e *WriteError) Error() string {
	return "digest: " + e.Op + " " + e.Path + ": " + e.Err.Error()
}

func (e *WriteError) Unwrap() error { return e.Err }

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Normalize returns the body as it would be stored (all trailing LFs removed)
// and whether there is anything to store (a non-whitespace character).
func Normalize(body string) (string, bool) {
	body = strings.TrimRight(body, "\n")
	return body, strings.IndexFunc(body, func(r rune) bool { return !unicode.IsSpace(r) }) >= 0
}

// Write stores body as a new digest under key and returns the new file's
// base name. An empty key, or a body with nothing but whitespace, is not
// stored: Write then returns "" and no error, creating no directory and
// reaping nothing. A key Key could not have returned is ErrInvalidKey.
// Otherwise Write creates the directory (parents like mkdir -p), refuses one
// it cannot make private (mode 0700, owned by the current user), reaps
// expired digests of every key, and publishes body plus one '\n' under a
// fresh name. Every failure is a *WriteError and leaves no file behind.
func (s *Store) Write(key, body string) (string, error) {
	if key == "" {
		return "", nil // spec 2.4 step 1: nothing to store
	}
	if !validKey(key) {
		return "", &WriteError{Op: "create", Path: s.Dir, Err: ErrInvalidKey}
	}
	body, ok := Normalize(body)
	if !ok {
		return "", nil
	}
	if err := s.prepareDir(); err != nil {
		return "", err
	}
	now := s.now()
	s.reap(now)
	return publish(s.Dir, key, []byte(body+"\n"), now)
}

// prepareDir creates the directory and makes it private. Nothing is
// created, re-moded or reaped through a symlink another user owns, nor in a
// directory the current user does not own.
func (s *Store) prepareDir() error {
	if s.untrusted != nil {
		return &WriteError{Op: "secure", Path: s.Dir, Err: fmt.Errorf("%w: %w", ErrInsecureDir, s.untrusted)}
	}
	if err := checkChain(s.Dir); err != nil {
		return &WriteError{Op: "secure", Path: s.Dir, Err: err}
	}
	if s.fallback != "" { // created private, and checked again once it exists
		if err := os.Mkdir(s.fallback, 0o700); err != nil && !os.IsExist(err) {
			return &WriteError{Op: "mkdir", Path: s.fallback, Err: err}
		}
		if err := PrivateFallback(s.fallback); err != nil {
			return &WriteError{Op: "secure", Path: s.fallback, Err: fmt.Errorf("%w: %w", ErrInsecureDir, err)}
		}
	}
	if err := os.MkdirAll(s.Dir, 0o777); err != nil {
		return &WriteError{Op: "mkdir", Path: s.Dir, Err: err}
	}
	if err := s.private(); errors.Is(err, ErrInsecureDir) {
		return &WriteError{Op: "secure", Path: s.Dir, Err: err}
	} else if err != nil {
		return &WriteError{Op: "mkdir", Path: s.Dir, Err: err}
	}
	if err := os.Chmod(s.Dir, 0o700); err != nil {
		return &WriteError{Op: "secure", Path: s.Dir, Err: fmt.Errorf("%w: %w", ErrInsecureDir, err)}
	}
	return nil
}

// reap deletes expired regular files named *.digest.* directly inside the
// directory, of every key (stale temporary files too). Failures are ignored.
func (s *Store) reap(now time.Time) {
	if s.TTLDays < 0 {
		return
	}
	entries, err := os.ReadDir(s.Dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.Contains(e.Name(), ".digest.") {
			continue
		}
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() || !s.expired(fi.ModTime(), now) {
			continue
		}
		os.Remove(filepath.Join(s.Dir, e.Name()))
	}
}

const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// newName returns <key>.digest.<epoch>.<unique>, where <unique> is the
// nanosecond within the second (9 digits, so byte order is write order
// within one second) followed by 6 random alphanumerics.
func newName(key string, now time.Time) string {
	b := make([]byte, 0, len(key)+40)
	b = append(b, key...)
	b = append(b, ".digest."...)
	b = strconv.AppendInt(b, now.Unix(), 10)
	b = append(b, '.')
	b = fmt.Appendf(b, "%09d", now.Nanosecond())
	for range 6 {
		b = append(b, alnum[rand.IntN(len(alnum))])
	}
	return string(b)
}

// maxNameAttempts bounds the retries after a name collision.
const maxNameAttempts = 100

// Read replays the session's digests to w: when more than Keep exist, the
// count line first; then, oldest first, the newest Keep digests each behind
// "==> prior /how-do-i digest N <==". Only regular, non-empty, unexpired
// files named <key>.digest.* count. A refused key, a missing or unreadable
// directory, one that is not the current user's own (see [Store.List]), or
// no digest prints nothing. Read never writes to the store;
// the only error it returns is w's.
func (s *Store) Read(key string, w io.Writer) error {
	if !validKey(key) {
		return nil
	}
	names := s.List(key)
	total := int64(len(names))
	if s.Keep > 0 && total > s.Keep {
		if _, err := fmt.Fprintf(w, "(%d prior digests this session \u2014 replaying the %d most recent)\n", total, s.Keep); err != nil {
			return err
		}
		names = names[total-s.Keep:]
	}
	for i, name := range names {
		if _, err := fmt.Fprintf(w, "==> prior /how-do-i digest %d <==\n", i+1); err != nil {
			return err
		}
		if err := copyDigest(w, filepath.Join(s.Dir, name)); err != nil {
			return err
		}
	}
	return nil
}

// List returns the base names Read would consider for key, in replay order
// (ascending bytes), before the Keep cap. A directory that is not the
// current user's own (another user owns it, or a symlink another user owns
// leads to it) lists nothing, like a missing one.
func (s *Store) List(key string) []string {
	if !validKey(key) || s.private() != nil {
		return nil // a directory another user owns or reaches is never replayed
	}
	entries, err := os.ReadDir(s.Dir)
	if err != nil {
		return nil
	}
	prefix := key + ".digest."
	now := s.now()
	var names []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), prefix) || !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 || s.expired(fi.ModTime(), now) {
			continue
		}
		names = append(names, e.Name())
	}
	slices.Sort(names)
	return names
}

// copyDigest copies one digest verbatim. A file that vanished, cannot be read
// or is no longer the regular file that was listed contributes nothing.
func copyDigest(w io.Writer, path string) error {
	before, err := os.Lstat(path)
	if err != nil || !before.Mode().IsRegular() {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	after, err := f.Stat()
	if err != nil || !os.SameFile(before, after) {
		return nil
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil
	}
	_, err = w.Write(data)
	return err
}
