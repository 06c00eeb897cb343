//go:build !unix

package evidence

import "errors"

// writeCache writes no cache where an atomic 0600 replace is not at hand
// (the stats the cache compares are Linux's anyway).
func writeCache(string, []byte) error { return errors.New("no evidence cache on this system") }
