// Command turn-state-reset is the hook of package internal/cli/turnstatereset.
package main

import (
	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/cli/turnstatereset"
	"os"
)

func main() { os.Exit(turnstatereset.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, cli.OSEnv())) }
