package evidence

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The sweep stands on the log format (internal/gatelog), not on doctor:
// no file of the package imports internal/doctor, nor anything of the
// command layer above it.
func TestImportsNoDoctor(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasSuffix(p, "/internal/doctor") || strings.Contains(p, "/internal/cli") {
				t.Errorf("%s imports %s", f, p)
			}
		}
	}
}
