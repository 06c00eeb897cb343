// Command procedures runs every command from one binary: procedures <command> [args].
package main

import (
	"os"

	"github.com/procedures-go/procedures/internal/commands"
)

func main() { os.Exit(commands.Main()) }
