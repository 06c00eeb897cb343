package cachefile

import "testing"

// An index is never kept inside the corpus it indexes.
func TestInside(t *testing.T) {
	for _, c := range []struct {
		dir, root string
		want      bool
	}{
		{"/r/.cache/procedures", "/r", true},
		{"/r", "/r", true},
		{"/home/u/.cache/procedures", "/r", false},
		{"/rr/.cache", "/r", false},
	} {
		if got := Inside(c.dir, c.root); got != c.want {
			t.Errorf("Inside(%q, %q) = %v, want %v", c.dir, c.root, got, c.want)
		}
	}
}
