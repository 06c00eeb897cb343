package corpus

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// One record's keywords are de-duplicated in linear time. With 300,000
// distinct tokens a linear pass takes well under a second, while the
// quadratic one it replaced (a linear search per token) makes 4.5e10
// comparisons: minutes. The deadline is a hang detector far above the
// linear cost, not a timing assertion.
func TestKeywordTokensLinear(t *testing.T) {
	const n = 300_000
	var b strings.Builder
	for i := range n {
		b.WriteString("kw" + strconv.Itoa(i) + " ")
	}
	text := b.String()
	done := make(chan []string, 1)
	go func() { done <- keywordTokens(text) }()
	select {
	case toks := <-done:
		if len(toks) != n {
			t.Fatalf("%d tokens, want %d", len(toks), n)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("de-duplicating 300,000 keywords did not finish in 60 s: quadratic?")
	}
}
