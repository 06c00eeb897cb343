package lint

import (
	"testing"

	"github.com/procedures-go/procedures/internal/proctest"
)

// mkTree writes files under a new temporary root (see proctest.Tree).
func mkTree(t testing.TB, files map[string]string) string { return proctest.Tree(t, files) }
