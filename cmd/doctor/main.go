// Command doctor checks an installed procedures plugin (internal/cli/doctor).
package main

import (
	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/cli/doctor"
	"os"
)

func main() { os.Exit(doctor.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, cli.OSEnv())) }
