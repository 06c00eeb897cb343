package writerindex

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// askedOfLint is all the writers' index takes from the lint: which records
// it checks, the id it maps a record under, and the id map it answers
// with. The cache never runs the lint: the command does, asking it for ids.
var askedOfLint = map[string]bool{"IsLintableRecord": true, "ReadLintID": true, "NewIDMap": true, "IDMap": true}

func TestTheIndexNeverRunsTheLint(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "lint" && !askedOfLint[sel.Sel.Name] {
				t.Errorf("%s: the writers' index uses lint.%s: let the command run the lint and ask the index for ids", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
	}
}
