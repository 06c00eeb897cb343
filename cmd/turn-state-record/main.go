// Command turn-state-record runs package internal/cli/turnstaterecord.
package main

import (
	"github.com/procedures-go/procedures/internal/cli"
	command "github.com/procedures-go/procedures/internal/cli/turnstaterecord"
	"os"
)

func main() { os.Exit(command.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, cli.OSEnv())) }
