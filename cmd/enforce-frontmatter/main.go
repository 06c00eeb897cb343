// Command enforce-frontmatter runs package internal/cli/enforcefrontmatter.
package main

import (
	"github.com/procedures-go/procedures/internal/cli"
	command "github.com/procedures-go/procedures/internal/cli/enforcefrontmatter"
	"os"
)

func main() { os.Exit(command.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, cli.OSEnv())) }
