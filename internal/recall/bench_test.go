package recall

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchStore writes a mistakes.jsonl of n lines of random words and returns
// its path and words.
func benchStore(b *testing.B, n int) (string, []string) {
	r := rand.New(rand.NewPCG(1, 2))
	words := make([]string, 3000)
	for i := range words {
		w := make([]byte, 4+r.IntN(7))
		for j := range w {
			w[j] = byte('a' + r.IntN(26))
		}
		words[i] = string(w)
	}
	pick := func() string { return words[r.IntN(len(words))] }
	var m strings.Builder
	for i := range n {
		fmt.Fprintf(&m, `{"ts":"2026-01-01T00:00:00Z","session":"s%d","category":"wrong-action","description":"%s then %s","correction":"%s first","pattern":"%s-%s","severity":"low"}`+"\n",
			i, pick(), pick(), pick(), pick(), pick())
	}
	name := filepath.Join(b.TempDir(), "mistakes.jsonl")
	if err := os.WriteFile(name, []byte(m.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return name, words
}

func BenchmarkRecall(b *testing.B) {
	for _, n := range []int{2000, 20000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			name, words := benchStore(b, n)
			terms := Terms(words[5] + " " + words[1] + "-" + words[2])
			b.ReportAllocs()
			for b.Loop() {
				if _, err := File(name, terms); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
