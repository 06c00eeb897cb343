// Package testcache keeps a test binary out of the user's cache: its Main
// points XDG_CACHE_HOME and TMPDIR at a directory of its own, runs the
// tests, removes that directory, and fails the run if the user's cache
// directory gained an index file naming a corpus below it (a test that
// reached the real cache through an environment of its own).
package testcache

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/procedures-go/procedures/internal/config"
)

// Main runs m as described in the package comment and returns its exit
// code, for TestMain to pass to os.Exit.
func Main(m *testing.M) int {
	userCache := config.CacheDir(os.Getenv)
	base, err := os.MkdirTemp("", "procedures-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "testcache:", err)
		return 1
	}
	defer os.RemoveAll(base)
	cache, tmp := filepath.Join(base, "cache"), filepath.Join(base, "tmp")
	for _, d := range []string{cache, tmp} {
		if err := os.Mkdir(d, 0o700); err != nil {
			fmt.Fprintln(os.Stderr, "testcache:", err)
			return 1
		}
	}
	os.Setenv("XDG_CACHE_HOME", cache)
	os.Setenv("TMPDIR", tmp)
	code := m.Run()
	if leaked := Leaked(userCache, base); len(leaked) > 0 {
		fmt.Fprintf(os.Stderr, "testcache: the tests left index files of their corpora in the user's cache %s: %q\n", userCache, leaked)
		for _, p := range leaked {
			os.Remove(p)
		}
		code = 1
	}
	return code
}

// Leaked is the index files in dir that name a path below base.
func Leaked(dir, base string) []string {
	if dir == "" {
		return nil
	}
	ents, _ := os.ReadDir(dir)
	var out []string
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		var b [4096]byte
		n, _ := f.Read(b[:])
		f.Close()
		if bytes.Contains(b[:n], []byte(base+"/")) {
			out = append(out, p)
		}
	}
	return out
}
