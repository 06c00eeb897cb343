package enforcefrontmatter

import (
	"os"
	"testing"

	"github.com/procedures-go/procedures/internal/testcache"
)

// TestMain keeps the index these tests build out of the user's cache.
func TestMain(m *testing.M) { os.Exit(testcache.Main(m)) }
