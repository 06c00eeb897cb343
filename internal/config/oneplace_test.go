package config

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// spellsElsewhere are the directories whose non-test Go files may still
// spell a documented variable's name, each with why. Everything else gets its
// variables through this package.
var spellsElsewhere = map[string]string{
	"internal/cli/hooktest": "test support: seeds a sandbox environment by name",
	"internal/testcache":    "test support: points a test binary's cache at a temporary directory by name",
}

// The one-place rule: no non-test Go file outside internal/config (and
// spellsElsewhere) spells the name of a variable docs/environment.md lists
// as a string literal, so each variable is read through its declaration
// here.
func TestVariablesAreSpelledOnlyHere(t *testing.T) {
	names := map[string]bool{}
	for _, n := range docVars(t) {
		if readByNoGoBinary[n] == "" || readByNoGoBinary[n] == "index" {
			names[n] = true // the others are text (hooks.json's), not reads
		}
	}
	// The switch variables' prefixes count as their names.
	names[switchOptionPrefix], names[switchPrefix] = true, true
	fset := token.NewFileSet()
	var found []string
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("../..", path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "internal/config" || strings.HasPrefix(d.Name(), ".") && rel != "." ||
				d.Name() == "testdata" || spellsElsewhere[rel] != "" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if s, err := strconv.Unquote(lit.Value); err == nil && names[s] {
				found = append(found, fset.Position(lit.Pos()).String()+": "+lit.Value)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(found)
	for _, f := range found {
		t.Errorf("%s: read it through internal/config", strings.TrimPrefix(f, "../../"))
	}
}
