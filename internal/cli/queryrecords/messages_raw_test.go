package queryrecords

import (
	"path/filepath"
	"slices"
	"testing"
)

// "<…> marks a substitution of the raw bytes, unescaped". A value that
// holds an LF is written as it is, inside its one message: the tool prefix
// starts each message, not each line of a substituted value.
func TestRunMessagesKeepRawValues(t *testing.T) {
	root := baseRoot(t)
	env := map[string]string{"QUERY_RECORDS_ROOT": root}
	const e13 = "query-records: this is NOT 'no matches'. Tokens shorter than 2 characters are dropped; use a longer term.\n"
	for _, tc := range []struct {
		env    map[string]string
		args   []string
		code   int
		stderr string
	}{
		{env, []string{"--bo\ngus"}, 2, "query-records: unknown flag: --bo\ngus\n"},
		{env, []string{"--keyword", "a\nb"}, 2, "query-records: --keyword \"a\nb\" has no token of 2+ characters — nothing to search.\n" + e13},
		{env, []string{"--recall", "a\nb"}, 2, "query-records: --recall \"a\nb\" has no token of 2+ characters — nothing to search.\n" + e13},
		{env, []string{"--cat", "p", "--x\ny"}, 2, "query-records: --cat is its own mode — it takes record paths, and cannot be combined with --x\ny\n"},
		{map[string]string{"QUERY_RECORDS_ROOT": root, "QUERY_RECORDS_RECALL_FILE": "no\nfile"}, []string{"--recall", "xx"}, 3,
			"query-records: recall store not found: no\nfile — NOT 'no matches'\n"},
	} {
		r := invoke(tc.env, tc.args...)
		if r.code != tc.code || r.stderr != tc.stderr || r.stdout != "" {
			t.Errorf("%q: exit %d stdout %q stderr %q; want exit %d stderr %q", tc.args, r.code, r.stdout, r.stderr, tc.code, tc.stderr)
		}
	}
	// The one-line unenterable-root diagnostic stays one line for a root holding an LF.
	missing := filepath.Join(t.TempDir(), "no\nroot")
	if r := invoke(map[string]string{"QUERY_RECORDS_ROOT": missing}, "--kind", "x"); r.code != 0 || r.stderr != "query-records: cannot enter corpus root "+missing+": no such file or directory\n" {
		t.Errorf("missing root: %+v", r)
	}
}

// --cat arguments holding LF are split on it (empty pieces dropped); an
// argument without LF, the empty one included, is one reference.
func TestCatRefsSplitOnLF(t *testing.T) {
	for _, tc := range []struct{ in, want []string }{
		{[]string{"\n"}, []string{""}},
		{[]string{"p", "\n"}, []string{"p"}},
		{[]string{"", "\n\n"}, []string{""}},
		{[]string{"a\n\nb\r\n"}, []string{"a", "b\r"}},
		{[]string{"", "x"}, []string{"", "x"}},
	} {
		if got := catRefs(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("catRefs(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for ref, want := range map[string]bool{"dec.alpha": true, "x.MD": true, "foo": false, "foo.md": false, "a.b/c": false, "": false} {
		if isIDLike(ref) != want {
			t.Errorf("isIDLike(%q) = %v", ref, !want)
		}
	}
}
