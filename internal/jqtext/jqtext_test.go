package jqtext

import "testing"

// Expected renderings were taken from jq 1.6 (jq -r .).

// The jq 1.6 escaping of the observed example: control characters as
// \b \f \u0001, DEL as \u007f, U+2028, '/', '<' and '>' raw.
func TestAppendString(t *testing.T) {
	in := "a\bb\fc\x01d\x7fe\u2028f/g<h>&\"\\\n\t\r"
	want := `"a\bb\fc\u0001d\u007fe` + "\u2028" + `f/g<h>&\"\\\n\t\r"`
	if got := string(AppendString(nil, in)); got != want {
		t.Fatalf("AppendString = %s, want %s", got, want)
	}
	if got := string(AppendString(nil, "—")); got != `"—"` {
		t.Fatalf("the em dash must stay raw UTF-8: %s", got)
	}
}

func TestRender(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`"a\nb"`, "a\nb"}, {`12345`, "12345"}, {`1.50`, "1.5"}, {`1e3`, "1000"}, {`-0.0001`, "-0.0001"},
		{`0.00001`, "1e-05"}, {`1e17`, "1e+17"}, {`1e15`, "1000000000000000"}, {`123456789012345678`, "123456789012345680"}, {`1.5e-7`, "1.5e-07"}, {`5e-324`, "5e-324"}, {`-0`, "-0"}, {`1.0`, "1"}, {`1e300`, "1e+300"}, {`1e999`, "1.7976931348623157e+308"},
		{`true`, "true"}, {`null`, "null"}, {`{}`, "{}"}, {`[]`, "[]"},
		{`{"a":1}`, "{\n  \"a\": 1\n}"}, {`[1,{"b":[2]}]`, "[\n  1,\n  {\n    \"b\": [\n      2\n    ]\n  }\n]"},
		{`{"b":1,"a":2,"b":3}`, "{\n  \"b\": 3,\n  \"a\": 2\n}"}, {`{bad`, ""},
	} {
		if got := Render([]byte(c.in)); got != c.want {
			t.Errorf("Render(%s) = %q, want %q", c.in, got, c.want)
		}
	}
}

// The jq 1.6 string escaping, observed upstream, and jq's
// replacement of invalid UTF-8.
func TestAppendStringInvalidUTF8(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a\bb\fc\x01d\x7fe\u2028f/g<h>", "\"a\\bb\\fc\\u0001d\\u007fe\u2028f/g<h>\""},
		{"it's \"quoted\"\\\n\t\r", `"it's \"quoted\"\\\n\t\r"`},
		{"\x00\x1f", `"\u0000\u001f"`},
		// jq replaces invalid UTF-8 the way jvp_utf8_next reads it.
		{"a\xffb", "\"a\uFFFDb\""},           // invalid lead byte
		{"a\x80\x80b", "\"a\uFFFD\uFFFDb\""}, // stray continuation bytes, one each
		{"a\xe2\x82", "\"a\uFFFD\""},         // cut short by the end: one for the rest
		{"a\xe2Ab", "\"a\uFFFDAb\""},         // too few continuation bytes: the lead only
		{"a\xc0\xaf", "\"a\uFFFD\uFFFD\""},   // C0 is never a lead byte
		{"a\xe0\x80\xafb", "\"a\uFFFDb\""},   // overlong as a whole
		{"a\xed\xa0\x80b", "\"a\uFFFDb\""},   // surrogate
		{"é€😀", "\"é€😀\""},
	} {
		if got := string(AppendString(nil, tc.in)); got != tc.want {
			t.Errorf("AppendString(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
