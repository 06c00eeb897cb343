// Command turn-state-record is the hook of package internal/cli/turnstaterecord.
package main

import (
	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/cli/turnstaterecord"
	"os"
)

func main() { os.Exit(turnstaterecord.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, cli.OSEnv())) }
