// Command am-i-done-gate runs package internal/cli/amidonegate.
package main

import (
	"github.com/procedures-go/procedures/internal/cli"
	command "github.com/procedures-go/procedures/internal/cli/amidonegate"
	"os"
)

func main() { os.Exit(command.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, cli.OSEnv())) }
