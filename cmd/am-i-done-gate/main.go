// Command am-i-done-gate is the hook of package internal/cli/amidonegate.
package main

import (
	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/cli/amidonegate"
	"os"
)

func main() { os.Exit(amidonegate.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, cli.OSEnv())) }
