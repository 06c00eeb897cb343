// Command how-do-i-gate is the hook of package internal/cli/howdoigate.
package main

import (
	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/cli/howdoigate"
	"os"
)

func main() { os.Exit(howdoigate.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, cli.OSEnv())) }
