package hookio

import (
	"encoding/json"
	"testing"
)

// A digest result's NUL bytes are dropped before its trailing line feeds are
// trimmed, as the bash original's command substitution read it.
func TestClassifyResponseDropsNUL(t *testing.T) {
	cases := []struct{ result, digest string }{
		{"a\x00b", "ab"},
		{"GOAL: a\x00b\n\x00\n", "GOAL: ab"},
		{"x\n\x00\n\x00", "x"},
		{"\x00\x00\n", ""},
	}
	for _, c := range cases {
		resp, _ := json.Marshal(map[string]any{"status": "forked", "success": true, "result": c.result})
		k, d, _ := classifyResponse(resp)
		if d != c.digest || (c.digest != "") != (k == digestKind) {
			t.Errorf("result %q: kind %v digest %q, want digest %q", c.result, k, d, c.digest)
		}
	}
}
