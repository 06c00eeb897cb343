package shellread

import "testing"

// typical are calls of the size an agent makes most.
var typical = []string{
	"git status --short", "ls -la internal", "grep -rn 'func main' --include='*.go' .",
	"cat go.mod | head -20", "git log --oneline -5 # recent", "find . -name '*.go' | wc -l",
}

func BenchmarkReadOnlyTypical(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range typical {
			ReadOnly(c)
		}
	}
}
