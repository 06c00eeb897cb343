package commands

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/procedures-go/procedures"

// upArrowsPending are imports that break the layering and that another
// change of issue 32 removes: each must still exist (a stale entry fails,
// so the list only shrinks).
var upArrowsPending = map[string]string{}

// TestNoArrowUpTheHouse holds the layering of the module's non-test code:
// the command table (this package) is the top of the house, so only the
// binaries under cmd/ import it; and only the command layer imports a
// command (internal/cli/...): the table, the binaries and the end-to-end
// suite. Every platform's files count (build tags are not applied). Test
// files may import upward: a test of a lower package may drive a command.
func TestNoArrowUpTheHouse(t *testing.T) {
	imports := moduleImports(t, filepath.Join("..", ".."))
	if len(imports) < 20 || len(imports["internal/commands"]) == 0 {
		t.Fatalf("read only %d packages: is the walk of the module broken?", len(imports))
	}
	seen := map[string]bool{}
	for pkg, deps := range imports {
		for _, dep := range deps {
			why := ""
			switch {
			case dep == "internal/commands" && !under(pkg, "cmd"):
				why = "only the binaries under cmd/ import the command table"
			case under(dep, "internal/cli") && !under(pkg, "internal/cli", "internal/commands", "internal/e2e", "cmd"):
				why = "only the command layer (internal/cli/..., internal/commands, internal/e2e, cmd/) imports a command"
			default:
				continue
			}
			arrow := pkg + " -> " + dep
			if _, ok := upArrowsPending[arrow]; ok {
				seen[arrow] = true
				continue
			}
			t.Errorf("%s: an arrow up the house (%s)", arrow, why)
		}
	}
	for arrow := range upArrowsPending {
		if !seen[arrow] {
			t.Errorf("%s is gone: remove it from upArrowsPending", arrow)
		}
	}
}

// under reports whether the package path p is one of roots or below one.
func under(p string, roots ...string) bool {
	return slices.ContainsFunc(roots, func(r string) bool { return p == r || strings.HasPrefix(p, r+"/") })
}

// moduleImports maps each package of the module below root (its path
// relative to the module, "." for the root package) to the module's
// packages its non-test files import.
func moduleImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(rel)
		for _, spec := range f.Imports {
			ip, _ := strconv.Unquote(spec.Path.Value)
			if dep, ok := strings.CutPrefix(ip, module+"/"); ok && !slices.Contains(out[pkg], dep) {
				out[pkg] = append(out[pkg], path.Clean(dep))
			}
		}
		if out[pkg] == nil {
			out[pkg] = []string{}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
