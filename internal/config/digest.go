package config

import (
	"math"
	"time"

	"github.com/procedures-go/procedures/digest"
)

// DigestDirVar names the digest store (a doctor's fix sets it).
const DigestDirVar = "SESSION_DIGEST_DIR"

var (
	envDigestDir = declare(Var{
		Name:    DigestDirVar,
		Default: "<turn-state dir>/digests",
		Doc:     "the digest store of digest-record, session-digest-read and doctor",
	})
	envDigestKeep = declare(Var{
		Name:    "SESSION_DIGEST_KEEP",
		Default: "3",
		Doc:     "how many digests session-digest-read replays, newest last; 0 uncapped; decimal digits only, anything else the default",
	})
	envDigestTTL = declare(Var{
		Name:    "SESSION_DIGEST_TTL_DAYS",
		Default: "2",
		Doc:     "digests more than this many whole days old are reaped by digest-record and never replayed; decimal digits only, anything else the default",
	})
)

// Digest is the digest store's setting, as the environment gives it.
type Digest struct {
	// Dir is $SESSION_DIGEST_DIR; "" means <turn-state dir>/digests.
	Dir string
	// Keep is the replay cap; 0 is uncapped (SESSION_DIGEST_KEEP=0, or a
	// number too large for an int64).
	Keep int64
	// TTLDays: a digest more than TTLDays whole days old is expired
	// (find -mtime +TTLDays); -1, a number too large for an int64, never.
	TTLDays int64
}

// DigestFrom reads the digest store's setting: SESSION_DIGEST_KEEP and
// SESSION_DIGEST_TTL_DAYS as decimal digit strings (anything else, unset
// and empty alike, selects the default 3 and 2).
func DigestFrom(getenv Getenv) Digest {
	d := Digest{Dir: envDigestDir.get(getenv), Keep: 3, TTLDays: 2}
	if n, ok := parseDigits(envDigestKeep.get(getenv)); ok {
		d.Keep = max(n, 0) // overflow (-1) means uncapped, like 0
	}
	if n, ok := parseDigits(envDigestTTL.get(getenv)); ok {
		d.TTLDays = n // overflow (-1): no expiry
	}
	return d
}

// maxTTLDays is the largest TTLDays whose TTL, (TTLDays+1) days, fits a
// time.Duration; no file can be older than that, so a larger one is no
// expiry.
const maxTTLDays = int64(math.MaxInt64/int64(24*time.Hour)) - 1

// Options maps the setting to the store's options: Keep 0 is
// digest.Unlimited; TTLDays n is a TTL of n+1 days (more than n whole days
// old), -1 or one beyond any file's age digest.Unlimited.
func (d Digest) Options() digest.Options {
	var o digest.Options
	switch {
	case d.Keep <= 0:
		o.Keep = digest.Unlimited
	case d.Keep > math.MaxInt:
		o.Keep = digest.Unlimited
	default:
		o.Keep = int(d.Keep)
	}
	switch {
	case d.TTLDays < 0, d.TTLDays > maxTTLDays:
		o.TTL = digest.Unlimited
	default:
		o.TTL = time.Duration(d.TTLDays+1) * 24 * time.Hour
	}
	return o
}
