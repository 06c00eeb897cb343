// Command lint-frontmatter runs package internal/cli/lintfrontmatter.
package main

import (
	"github.com/procedures-go/procedures/internal/cli"
	command "github.com/procedures-go/procedures/internal/cli/lintfrontmatter"
	"os"
)

func main() { os.Exit(command.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, cli.OSEnv())) }
