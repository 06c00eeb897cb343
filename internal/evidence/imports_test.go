package evidence

import (
	"go/build"
	"strings"
	"testing"
)

// The sweep stands on the log format (internal/gatelog), not on doctor:
// the package imports neither internal/doctor nor the command layer.
func TestImportsNoDoctor(t *testing.T) {
	p, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range p.Imports {
		if strings.HasSuffix(imp, "/internal/doctor") || strings.Contains(imp, "/internal/cli") {
			t.Errorf("the package imports %s", imp)
		}
	}
}
