package procedures

// Temporary: pins the module's dependencies in go.mod while the packages that
// use them are written in parallel. Removed (and `go mod tidy` run) once they land.
import (
	_ "github.com/adrg/frontmatter"
	_ "github.com/google/renameio/v2"
	_ "go.yaml.in/yaml/v3"
)
