// Command tierpin-lint runs package internal/cli/tierpinlint.
package main

import (
	"github.com/procedures-go/procedures/internal/cli"
	command "github.com/procedures-go/procedures/internal/cli/tierpinlint"
	"os"
)

func main() { os.Exit(command.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, cli.OSEnv())) }
