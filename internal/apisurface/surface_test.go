package apisurface

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// publicAPI is each public package (a directory under the module root) and
// the most exported names it may have (issue 16: a library's surface, as
// `go doc -all` shows it to another tool's author).
var publicAPI = []struct {
	dir   string
	limit int
}{
	{"records", 40}, // Corpus.Search (issue 35) paid for by RecallFile's removal
	{"digest", 15},
	{"hookio", 25}, // 25: the payload accessors (Get, ToolInput, TranscriptPath; Value with Text and Composite) replace Field (issue 32)
	{"failopen", 10},
}

// parsePackage parses the non-test Go files of the package in dir, relative
// to the module root, with comments.
func parsePackage(t *testing.T, dir string) (*token.FileSet, map[string]*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	paths, err := filepath.Glob(filepath.Join("..", "..", dir, "*.go"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("%s: no Go files (%v)", dir, err)
	}
	files := map[string]*ast.File{}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files[p] = f
	}
	return fset, files
}

// exportedNames lists a package's exported names as `go doc -all` shows
// them: functions, types, methods of exported types, constants and
// variables (struct fields and interface methods are not counted). A name
// declared in two files for different platforms counts once.
func exportedNames(files map[string]*ast.File) []string {
	var names []string
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv == nil {
					names = append(names, d.Name.Name)
					continue
				}
				if recv := receiverType(d.Recv.List[0].Type); ast.IsExported(recv) {
					names = append(names, recv+"."+d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							names = append(names, "type "+s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								names = append(names, n.Name)
							}
						}
					}
				}
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// receiverType is the name of a method's receiver type: T, *T, T[P], *T[P, Q].
func receiverType(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	switch x := e.(type) {
	case *ast.IndexExpr:
		e = x.X
	case *ast.IndexListExpr:
		e = x.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// TestPublicAPISize counts each public package's exported names against its
// limit and, over it, lists them all.
func TestPublicAPISize(t *testing.T) {
	for _, p := range publicAPI {
		_, files := parsePackage(t, p.dir)
		if names := exportedNames(files); len(names) > p.limit {
			t.Errorf("package %s exports %d names, at most %d allowed:\n\t%s",
				p.dir, len(names), p.limit, strings.Join(names, "\n\t"))
		}
	}
}

// envFuncs are the calls that read the process environment.
var envFuncs = map[string][]string{
	"os":      {"Getenv", "LookupEnv", "Environ", "ExpandEnv"},
	"syscall": {"Getenv", "Environ"},
}

// TestPublicPackagesReadNoEnvironment: mapping variables to options is the
// commands' job (internal/config), so no non-test file of a public package
// refers to os.Getenv, os.LookupEnv, os.Environ, os.ExpandEnv or their
// syscall forms, called or passed as a value.
func TestPublicPackagesReadNoEnvironment(t *testing.T) {
	for _, p := range publicAPI {
		fset, files := parsePackage(t, p.dir)
		for _, f := range files {
			local := map[string]string{} // name in this file -> import path
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				name := filepath.Base(path)
				if imp.Name != nil {
					name = imp.Name.Name
				}
				local[name] = path
			}
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if id, ok := sel.X.(*ast.Ident); ok && slices.Contains(envFuncs[local[id.Name]], sel.Sel.Name) {
					t.Errorf("%s: %s.%s reads the environment", fset.Position(sel.Pos()), local[id.Name], sel.Sel.Name)
				}
				return true
			})
		}
	}
}

// cliWording is text that belongs to a command's messages, not to a
// library's: a command's name as a message prefix, the lint's advice and
// its emoji markers.
var cliWording = []string{
	"query-records:", "lint-frontmatter:", "log-record:", "session-digest-read:",
	"digest-record:", "enforce-frontmatter:", "frontmatter-lint", "tierpin:",
	"bypass with", "--no-verify",
	"✗", "⚠", "❌", "✅",
}

// TestPublicPackagesHaveNoCLIWording: no string literal in a non-test file
// of a public package carries command-line wording.
func TestPublicPackagesHaveNoCLIWording(t *testing.T) {
	for _, p := range publicAPI {
		fset, files := parsePackage(t, p.dir)
		for _, f := range files {
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					s = lit.Value
				}
				for _, w := range cliWording {
					if strings.Contains(s, w) {
						t.Errorf("%s: %q is command-line wording (%q)", fset.Position(lit.Pos()), s, w)
					}
				}
				return true
			})
		}
	}
}

// The counting rule itself, on a made-up package.
func TestExportedNamesRule(t *testing.T) {
	src := `package p
type T struct{ Field int }
type u struct{}
type G[P any] struct{}
func (T) M() {}
func (*T) N() {}
func (u) M() {}
func (G[P]) M() {}
func F() {}
func f() {}
const C, c = 1, 2
var V int
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(exportedNames(map[string]*ast.File{"p.go": f}), " ")
	want := "C F G.M T.M T.N V type G type T"
	if got != want {
		t.Errorf("exportedNames = %q, want %q", got, want)
	}
}
