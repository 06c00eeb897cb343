// Command log-record writes knowledge-store records (see package logrecord).
package main

import (
	"os"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/cli/logrecord"
)

func main() { os.Exit(logrecord.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, cli.OSEnv())) }
