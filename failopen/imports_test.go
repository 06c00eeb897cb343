package failopen

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The logger (and the libraries a hook is built from) never run
// another program: no library file imports os/exec.
func TestNoExternalPrograms(t *testing.T) {
	for _, dir := range []string{".", "../digest", "../hookio", "../internal/gatelog"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
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
				if p, _ := strconv.Unquote(imp.Path.Value); p == "os/exec" || p == "syscall/exec" {
					t.Errorf("%s imports %s", f, p)
				}
			}
		}
	}
}
