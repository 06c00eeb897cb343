package config

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/procedures-go/procedures/digest"
)

func env(m map[string]string) Getenv { return func(k string) string { return m[k] } }

// KEEP and TTL fallbacks and the directory (moved here from
// digest's FromEnv).
func TestDigestFrom(t *testing.T) {
	for _, c := range []struct {
		env       map[string]string
		dir       string
		ttl, keep int64
	}{
		{map[string]string{}, "", 2, 3},
		{map[string]string{"SESSION_DIGEST_DIR": "/d"}, "/d", 2, 3},
		{map[string]string{"SESSION_DIGEST_TTL_DAYS": "abc"}, "", 2, 3},
		{map[string]string{"SESSION_DIGEST_TTL_DAYS": "-1"}, "", 2, 3},
		{map[string]string{"SESSION_DIGEST_TTL_DAYS": "02"}, "", 2, 3},
		{map[string]string{"SESSION_DIGEST_TTL_DAYS": "0"}, "", 0, 3},
		{map[string]string{"SESSION_DIGEST_TTL_DAYS": "99999999999999999999"}, "", -1, 3},
		{map[string]string{"SESSION_DIGEST_KEEP": "08"}, "", 2, 8},
		{map[string]string{"SESSION_DIGEST_KEEP": "0"}, "", 2, 0},
		{map[string]string{"SESSION_DIGEST_KEEP": "99999999999999999999"}, "", 2, 0},
	} {
		d := DigestFrom(env(c.env))
		if d.Dir != c.dir || d.TTLDays != c.ttl || d.Keep != c.keep {
			t.Errorf("DigestFrom(%v) = %+v; want dir %q ttl %d keep %d", c.env, d, c.dir, c.ttl, c.keep)
		}
	}
}

// The mapping to digest.Options keeps find -mtime +N: a digest is expired
// once it is more than N whole days old, and never when N is beyond any
// file's age.
func TestDigestOptions(t *testing.T) {
	for _, c := range []struct {
		d    Digest
		keep int
		ttl  time.Duration
	}{
		{Digest{Keep: 3, TTLDays: 2}, 3, 72 * time.Hour},
		{Digest{Keep: 0, TTLDays: 0}, digest.Unlimited, 24 * time.Hour},
		{Digest{Keep: 1, TTLDays: -1}, 1, digest.Unlimited},
		{Digest{Keep: 1, TTLDays: maxTTLDays}, 1, time.Duration(maxTTLDays+1) * 24 * time.Hour},
		{Digest{Keep: 1, TTLDays: maxTTLDays + 1}, 1, digest.Unlimited},
		{Digest{Keep: math.MaxInt64, TTLDays: math.MaxInt64}, int(math.MaxInt64), digest.Unlimited},
	} {
		o := c.d.Options()
		if o.Keep != c.keep || o.TTL != c.ttl {
			t.Errorf("%+v.Options() = keep %d ttl %v; want %d %v", c.d, o.Keep, o.TTL, c.keep, c.ttl)
		}
	}
}

func plantSix(t *testing.T, dir string) *digest.Store {
	t.Helper()
	s, err := digest.Open(dir, digest.Options{Keep: digest.Unlimited})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 6; i++ {
		if _, err := s.Write("k", fmt.Sprintf("payload-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func replay(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "==> prior /how-do-i digest %d <==\npayload-%d\n", i-from+1, i)
	}
	return b.String()
}

// The SESSION_DIGEST_KEEP table, end to end through
// the store (moved here from digest's TestReplayKeep).
func TestDigestKeep(t *testing.T) {
	line := func(n int) string {
		return fmt.Sprintf("(6 prior digests this session \u2014 replaying the %d most recent)\n", n)
	}
	dir := filepath.Join(t.TempDir(), "d")
	plantSix(t, dir)
	for _, c := range []struct {
		keep string
		want string
	}{
		{"", line(3) + replay(4, 6)},
		{"abc", line(3) + replay(4, 6)},
		{"-1", line(3) + replay(4, 6)},
		{" 2", line(3) + replay(4, 6)},
		{"+3", line(3) + replay(4, 6)},
		{"0x10", line(3) + replay(4, 6)},
		{"٣", line(3) + replay(4, 6)},
		{"1", line(1) + replay(6, 6)},
		{"5", line(5) + replay(2, 6)},
		{"05", line(5) + replay(2, 6)},
		{"6", replay(1, 6)},
		{"007", replay(1, 6)},
		{"0", replay(1, 6)},
		{"00", replay(1, 6)},
		{"99999999999999999999999", replay(1, 6)},
	} {
		s, err := digest.Open(dir, DigestFrom(env(map[string]string{"SESSION_DIGEST_KEEP": c.keep})).Options())
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		s.Read("k", &b)
		if got := b.String(); got != c.want {
			t.Errorf("KEEP=%q:\n%s\nwant:\n%s", c.keep, got, c.want)
		}
	}
	// 9.1 fix: leading zeros are decimal in the count line (upstream: octal).
	dir = filepath.Join(t.TempDir(), "d")
	s := plantSix(t, dir)
	for i := 7; i <= 12; i++ {
		s.Write("k", "x")
	}
	s, _ = digest.Open(dir, DigestFrom(env(map[string]string{"SESSION_DIGEST_KEEP": "010"})).Options())
	var b strings.Builder
	s.Read("k", &b)
	if got := b.String(); !strings.HasPrefix(got, "(12 prior digests this session \u2014 replaying the 10 most recent)\n") || strings.Count(got, "==>") != 10 {
		t.Fatalf("KEEP=010:\n%s", got)
	}
}
