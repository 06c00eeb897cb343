// Command procedures runs every command from one binary: procedures <command> [args].
package main

import (
	"os"

	"github.com/procedures-go/procedures/internal/cli/multicall"
)

func main() { os.Exit(multicall.Main()) }
