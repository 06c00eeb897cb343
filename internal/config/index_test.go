package config

import (
	"os"
	"path/filepath"
	"testing"
)

// The cache directory is named only below a base that exists: an absolute
// XDG_CACHE_HOME that is a directory, else an absolute HOME that is one.
// Resolving it never creates anything.
func TestCacheDirNeverMakesAMissingBase(t *testing.T) {
	tmp := t.TempDir()
	home := filepath.Join(tmp, "home")
	xdg := filepath.Join(tmp, "xdg")
	file := filepath.Join(tmp, "file")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(xdg, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(tmp, "no-such-home")
	for _, c := range []struct {
		name     string
		env      map[string]string
		want     string
		describe string
	}{
		{"xdg", map[string]string{"XDG_CACHE_HOME": xdg, "HOME": home}, filepath.Join(xdg, "procedures"), "an existing XDG_CACHE_HOME wins"},
		{"home", map[string]string{"HOME": home}, filepath.Join(home, ".cache", "procedures"), "an existing HOME"},
		{"relative xdg", map[string]string{"XDG_CACHE_HOME": "rel", "HOME": home}, filepath.Join(home, ".cache", "procedures"), "a relative XDG_CACHE_HOME is ignored"},
		{"missing home", map[string]string{"HOME": missing}, "", "a missing home is never made"},
		{"missing xdg", map[string]string{"XDG_CACHE_HOME": filepath.Join(missing, ".cache"), "HOME": home}, "", "a missing XDG_CACHE_HOME is never made"},
		{"home is a file", map[string]string{"HOME": file}, "", "a HOME that is a file"},
		{"relative home", map[string]string{"HOME": "rel"}, "", "a relative HOME"},
		{"nothing", map[string]string{}, "", "neither set"},
	} {
		if got := CacheDir(env(c.env)); got != c.want {
			t.Errorf("%s (%s): CacheDir = %q, want %q", c.name, c.describe, got, c.want)
		}
	}
	if _, err := os.Lstat(missing); !os.IsNotExist(err) {
		t.Errorf("resolving made %s", missing)
	}
	if _, err := os.Lstat(filepath.Join(home, ".cache")); !os.IsNotExist(err) {
		t.Errorf("resolving made %s/.cache", home)
	}
}
