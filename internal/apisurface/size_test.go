package apisurface

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The house's size rules for the module's non-test Go files: a file holds
// at most maxFileLines lines and a function (a declared one, or a function
// literal outside any) at most maxFuncLines, from its func keyword to its
// closing brace.
const (
	maxFileLines = 800
	maxFuncLines = 120
)

// oversized are the known offenders, each "path" (a file) or "path:name"
// (a function), with its size in lines when it was listed. They belong to
// work in flight in other packages; an entry goes when its code is split.
// The test fails for an entry that no longer offends and for one that
// grew, so the list only shrinks.
var oversized = map[string]int{}

// TestNoOversizedFilesOrFuncs walks the module and reports every non-test
// file over maxFileLines and every function over maxFuncLines that is not
// listed in oversized, and every listed entry that is no longer over.
func TestNoOversizedFilesOrFuncs(t *testing.T) {
	root := filepath.Join("..", "..")
	found := map[string]int{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if n := bytes.Count(src, []byte{'\n'}); n > maxFileLines {
			found[rel] = n
		}
		for name, n := range longFuncs(t, path, src) {
			found[rel+":"+name] = n
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var over, gone []string
	for k, n := range found {
		if limit, ok := oversized[k]; !ok || n > limit {
			over = append(over, k+" ("+strconv.Itoa(n)+" lines)")
		}
	}
	for k := range oversized {
		if _, ok := found[k]; !ok {
			gone = append(gone, k)
		}
	}
	slices.Sort(over)
	slices.Sort(gone)
	if len(over) > 0 {
		t.Errorf("over the house's size rules (a file at most %d lines, a function at most %d): split them\n\t%s",
			maxFileLines, maxFuncLines, strings.Join(over, "\n\t"))
	}
	if len(gone) > 0 {
		t.Errorf("no longer oversized: remove from oversized\n\t%s", strings.Join(gone, "\n\t"))
	}
}

// longFuncs returns the functions of one file over maxFuncLines, by name
// (a method as (T).M or (*T).M, a function literal outside any declaration
// as func@line), with their lengths.
func longFuncs(t *testing.T, path string, src []byte) map[string]int {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	lines := func(n ast.Node) int { return fset.Position(n.End()).Line - fset.Position(n.Pos()).Line + 1 }
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if l := lines(n); l > maxFuncLines {
				out[funcName(n)] = l
			}
			return false // its literals are counted in it
		case *ast.FuncLit:
			if l := lines(n); l > maxFuncLines {
				out["func@"+strconv.Itoa(fset.Position(n.Pos()).Line)] = l
			}
			return false
		}
		return true
	})
	return out
}

// funcName is a declaration's name, a method's with its receiver type.
func funcName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	recv := receiverType(d.Recv.List[0].Type)
	if _, ptr := d.Recv.List[0].Type.(*ast.StarExpr); ptr {
		recv = "*" + recv
	}
	return "(" + recv + ")." + d.Name.Name
}
