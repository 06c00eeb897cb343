package digest

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/procedures-go/procedures/internal/sessionname"
)

// Unlimited, as [Options.Keep], replays every digest, and as
// [Options.TTL], never expires one. Any negative value means the same.
const Unlimited = -1

// The defaults the zero [Options] selects.
const (
	defaultKeep = 3
	defaultTTL  = 3 * 24 * time.Hour
)

// Options are a store's replay and expiry settings. The zero value selects
// the defaults.
type Options struct {
	// Keep caps how many digests Read replays (the newest): 0 means 3;
	// Unlimited (any negative value) replays them all.
	Keep int
	// TTL is the age from which a digest is expired: reaped by Write and
	// Reap, skipped by Read and List. 0 means three days (72h, which is
	// find -mtime +2: more than two whole days); Unlimited (any negative
	// value) never expires a digest. A digest modified in the future never
	// expires.
	TTL time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Prepare, when not nil, is called by Write once it has a digest to
	// store, before it creates, changes or reaps anything; an error stops
	// the Write (a *WriteError with Op "prepare"). A caller that keeps the
	// store inside a directory of its own creates and checks that
	// directory here.
	Prepare func() error
}

// Store is an open digest directory. Its methods may be called from
// several goroutines and processes at once. A Store comes from Open; the
// zero Store has no directory: its Write and Reap fail and its Read and
// List find nothing.
type Store struct {
	dir     string
	keep    int           // 0: uncapped
	ttl     time.Duration // < 0: never
	now     func() time.Time
	prepare func() error
}

// Open returns the store of dir with the settings o. It touches nothing on
// disk: the directory is created by the first Write that stores a digest,
// and a missing one reads as empty. An empty dir is an *fs.PathError
// matching fs.ErrInvalid.
func Open(dir string, o Options) (*Store, error) {
	if dir == "" {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: fs.ErrInvalid}
	}
	s := &Store{dir: dir, keep: o.Keep, ttl: o.TTL, now: o.Now, prepare: o.Prepare}
	switch {
	case s.keep == 0:
		s.keep = defaultKeep
	case s.keep < 0:
		s.keep = 0
	}
	if s.ttl == 0 {
		s.ttl = defaultTTL
	}
	return s, nil
}

// clock is the store's time.
func (s *Store) clock() time.Time {
	if s.now == nil {
		return time.Now()
	}
	return s.now()
}

// Dir returns the store's directory, as given to Open.
func (s *Store) Dir() string { return s.dir }

// ErrInsecureDir reports a digest directory that is not owned by the current
// user, is reached through another user's symlink or cannot be made mode
// 0700; nothing is written into it.
var ErrInsecureDir = errors.New("digest directory is not private to the current user")

// ErrInvalidKey reports a key outside the key alphabet (see [Store.Write]).
var ErrInvalidKey = errors.New("invalid digest key")

// WriteError is a failure of Write or Reap: the digest could not be
// persisted, or the directory could not be reaped.
type WriteError struct {
	Op   string // "prepare", "mkdir", "secure", "create", "write", "publish", "reap"
	Path string
	Err  error
}

func (e *WriteError) Error() string {
	return "digest: " + e.Op + " " + e.Path + ": " + e.Err.Error()
}

func (e *WriteError) Unwrap() error { return e.Err }

// normalize returns the body as it would be stored (all trailing LFs
// removed) and whether there is anything to store (a non-whitespace
// character).
func normalize(body string) (string, bool) {
	body = strings.TrimRight(body, "\n")
	return body, strings.IndexFunc(body, func(r rune) bool { return !unicode.IsSpace(r) }) >= 0
}

// Write stores body as a new digest under key and returns the new file's
// base name. A key is a non-empty string of the bytes [A-Za-z0-9_-] (so it
// can never name a path outside the directory); any other non-empty key is
// ErrInvalidKey. An empty key, or a body with nothing but whitespace, is
// not stored: Write then returns "" and no error, creating no directory and
// reaping nothing. Otherwise Write calls [Options.Prepare], creates the
// directory (parents like mkdir -p), refuses one it cannot make private
// (mode 0700, owned by the current user), reaps expired digests of every
// key, and publishes body, trailing line feeds removed, plus one '\n' under
// a fresh name. Every failure is a *WriteError and leaves no file behind.
func (s *Store) Write(key, body string) (string, error) {
	if key == "" {
		return "", nil // spec 2.4 step 1: nothing to store
	}
	if !sessionname.Valid(key) {
		return "", &WriteError{Op: "create", Path: s.dir, Err: ErrInvalidKey}
	}
	body, ok := normalize(body)
	if !ok {
		return "", nil
	}
	if err := s.prepareDir(); err != nil {
		return "", err
	}
	now := s.clock()
	s.reap(now)
	return publish(s.dir, key, []byte(body+"\n"), now)
}

// prepareDir creates the directory and makes it private. Nothing is
// created, re-moded or reaped through a symlink another user owns, nor in a
// directory the current user does not own.
func (s *Store) prepareDir() error {
	if s.prepare != nil {
		if err := s.prepare(); err != nil {
			return &WriteError{Op: "prepare", Path: s.dir, Err: err}
		}
	}
	if err := checkChain(s.dir); err != nil {
		return &WriteError{Op: "secure", Path: s.dir, Err: err}
	}
	if err := os.MkdirAll(s.dir, 0o777); err != nil {
		return &WriteError{Op: "mkdir", Path: s.dir, Err: err}
	}
	if err := s.private(); errors.Is(err, ErrInsecureDir) {
		return &WriteError{Op: "secure", Path: s.dir, Err: err}
	} else if err != nil {
		return &WriteError{Op: "mkdir", Path: s.dir, Err: err}
	}
	if err := os.Chmod(s.dir, 0o700); err != nil {
		return &WriteError{Op: "secure", Path: s.dir, Err: fmt.Errorf("%w: %w", ErrInsecureDir, err)}
	}
	return nil
}

// Reap deletes the expired digests of every key (and stale temporary files
// of the writer), as Write does before it publishes. It creates nothing: a
// missing directory has nothing to reap. A directory that is not the
// current user's own (see [Store.List]) is a *WriteError matching
// ErrInsecureDir, and nothing in it is touched. Failures to delete single
// files are ignored.
func (s *Store) Reap() error {
	switch err := s.private(); {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case errors.Is(err, ErrInsecureDir):
		return &WriteError{Op: "reap", Path: s.dir, Err: err}
	case err != nil:
		return &WriteError{Op: "reap", Path: s.dir, Err: err}
	}
	s.reap(s.clock())
	return nil
}

// reap deletes expired regular files named *.digest.* directly inside the
// directory, of every key (stale temporary files too). Failures are ignored.
func (s *Store) reap(now time.Time) {
	if s.ttl < 0 {
		return
	}
	entries, err := os.ReadDir(s.dir)
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
		os.Remove(filepath.Join(s.dir, e.Name()))
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

// Read replays the session's digests to w: when more than [Options.Keep]
// exist, the count line first; then, oldest first, the newest Keep digests
// each behind
// "==> prior /how-do-i digest N <==". Only regular, non-empty, unexpired
// files named <key>.digest.* count. An invalid key, a missing or unreadable
// directory, one that is not the current user's own (see [Store.List]), or
// no digest prints nothing. Read never writes to the store;
// the only error it returns is w's.
func (s *Store) Read(key string, w io.Writer) error {
	if !sessionname.Valid(key) {
		return nil
	}
	names := s.List(key)
	total := len(names)
	if s.keep > 0 && total > s.keep {
		if _, err := fmt.Fprintf(w, "(%d prior digests this session \u2014 replaying the %d most recent)\n", total, s.keep); err != nil {
			return err
		}
		names = names[total-s.keep:]
	}
	for i, name := range names {
		if _, err := fmt.Fprintf(w, "==> prior /how-do-i digest %d <==\n", i+1); err != nil {
			return err
		}
		if err := copyDigest(w, filepath.Join(s.dir, name)); err != nil {
			return err
		}
	}
	return nil
}

// List returns the base names Read would consider for key, in replay order
// (ascending bytes), before the Keep cap: regular, non-empty, unexpired
// files named <key>.digest.*. A directory that is not the
// current user's own (another user owns it, or a symlink another user owns
// leads to it) lists nothing, like a missing one.
func (s *Store) List(key string) []string {
	if !sessionname.Valid(key) || s.private() != nil {
		return nil // a directory another user owns or reaches is never replayed
	}
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil
	}
	prefix := key + ".digest."
	now := s.clock()
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

// expired reports whether a file last modified at mtime is past the TTL at
// now. A future mtime never expires.
func (s *Store) expired(mtime, now time.Time) bool {
	if s.ttl < 0 {
		return false
	}
	age := now.Sub(mtime)
	return age >= 0 && age >= s.ttl
}
