package digest

import (
	"strconv"
	"time"
)

// Defaults used when the environment variables are unset, empty or not made
// of ASCII digits only.
const (
	DefaultTurnStateDir = "/tmp/claude-turn-state"
	DefaultKeep         = 3
	DefaultTTLDays      = 2
)

// NoTTL as Store.TTLDays means that nothing ever expires.
const NoTTL = -1

// FromEnv returns the Store the environment selects: SESSION_DIGEST_DIR, else
// [TurnStateDir]/digests;
// SESSION_DIGEST_KEEP and SESSION_DIGEST_TTL_DAYS as decimal digit strings
// (anything else selects the default; a value too large for an int64 means
// no cap and no expiry respectively). Unset and empty are the same.
func FromEnv(getenv func(string) string) *Store {
	return fromEnvWithDefault(getenv, DefaultTurnStateDir)
}

// fromEnvWithDefault is FromEnv with def as the default turn-state
// directory. A turn-state fallback that is not private to the user
// ([ErrUntrustedTurnStateDir]) makes a store that writes and replays
// nothing.
func fromEnvWithDefault(getenv func(string) string, def string) *Store {
	dir := getenv("SESSION_DIGEST_DIR")
	var untrusted error
	var fallback string
	if dir == "" {
		var ts string
		ts, untrusted = CheckTurnStateDirFrom(getenv, def)
		dir = ts + "/digests" // as bash's ${TURN_STATE_DIR}/digests: never cleaned
		if getenv("TURN_STATE_DIR") == "" && ts != def {
			fallback = ts
		}
	}
	s := &Store{Dir: dir, Keep: DefaultKeep, TTLDays: DefaultTTLDays, untrusted: untrusted, fallback: fallback}
	if n, ok := parseDigits(getenv("SESSION_DIGEST_KEEP")); ok {
		s.Keep = max(n, 0) // overflow (-1) means uncapped, like 0
	}
	if n, ok := parseDigits(getenv("SESSION_DIGEST_TTL_DAYS")); ok {
		s.TTLDays = n // overflow (-1) is NoTTL
	}
	return s
}

// parseDigits parses a non-empty string of ASCII digits as a decimal number
// (leading zeros allowed). It reports false for anything else, and returns
// -1 for a digit string too large for an int64.
func parseDigits(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return -1, true
	}
	return n, true
}

// expired reports whether a file last modified at mtime is past the TTL at
// now, with GNU find -mtime +TTL semantics: whole days of age greater than
// TTL. A future mtime never expires.
func (s *Store) expired(mtime, now time.Time) bool {
	if s.TTLDays < 0 {
		return false
	}
	age := now.Sub(mtime)
	if age < 0 {
		return false
	}
	return int64(age/(24*time.Hour)) > s.TTLDays
}
