package sessionname

import "testing"

// The one mapping under each store's rule: the digest key table
// and the turn-state keys agree on every id neither
// refuses or buckets.
func TestOf(t *testing.T) {
	for _, c := range []struct {
		raw       string
		digest    string
		digestOK  bool
		turnState string
	}{
		{"cd95eb6f-408f-4c02-80af-46f48bb7eef4", "cd95eb6f-408f-4c02-80af-46f48bb7eef4", true, "cd95eb6f-408f-4c02-80af-46f48bb7eef4"},
		{"sess/../weird id.42", "sess____weird_id_42", true, "sess____weird_id_42"},
		{"../../etc/passwd", "______etc_passwd", true, "______etc_passwd"},
		{"a.b:c", "a_b_c", true, "a_b_c"},
		{"héllo", "h__llo", true, "h__llo"},
		{"a\tb", "a_b", true, "a_b"},
		{"  ", "__", true, "__"},
		{"abc}def", "abc_def", true, "abc_def"},
		{"abc{def", "", false, "abc_def"},
		{"abc$def", "", false, "abc_def"},
		{"${CLAUDE_SESSION_ID}", "", false, "__CLAUDE_SESSION_ID_"},
		{"", "", false, "unknown"},
	} {
		if got, ok := Of(c.raw, Digest); got != c.digest || ok != c.digestOK {
			t.Errorf("Of(%q, Digest) = %q, %v; want %q, %v", c.raw, got, ok, c.digest, c.digestOK)
		}
		if got, ok := Of(c.raw, TurnState); got != c.turnState || !ok {
			t.Errorf("Of(%q, TurnState) = %q, %v; want %q, true", c.raw, got, ok, c.turnState)
		}
		if c.digestOK && !Valid(c.digest) {
			t.Errorf("Valid(%q) = false for a name Of returned", c.digest)
		}
	}
	for _, bad := range []string{"", "a.b", "a/b", "é", "a b", "${x}"} {
		if Valid(bad) {
			t.Errorf("Valid(%q) = true", bad)
		}
	}
}
