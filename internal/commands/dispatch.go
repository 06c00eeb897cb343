package commands

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/wiring"
)

// Name is the multi-call binary's own name.
const Name = "procedures"

// Run runs the command argv0 names, or else the one args[0] names, with the
// remaining arguments; it returns that command's exit status. Its own usage
// errors exit 2.
func Run(argv0 string, args []string, stdin io.Reader, stdout, stderr io.Writer, env cli.Env) int {
	name := strings.TrimSuffix(filepath.Base(argv0), ".exe")
	if c, ok := Lookup(name); ok {
		return c.Main(args, stdin, stdout, stderr, env)
	}
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "--help", "help":
		usage(stdout)
		return 0
	case "--version":
		fmt.Fprintln(stdout, Name, cli.Version())
		return 0
	case "bundle":
		return runBundle(args[1:], stdout, stderr)
	}
	if c, ok := Lookup(args[0]); ok {
		return c.Main(args[1:], stdin, stdout, stderr, env)
	}
	fmt.Fprintf(stderr, "%s: unknown command %q (%s --help lists them)\n", Name, args[0], Name)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "Usage: %s <command> [args...]\n", Name)
	fmt.Fprintf(w, "   or: <command> [args...]   (a link or copy of %s named after the command)\n\n", Name)
	fmt.Fprintln(w, "Commands:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range All {
		kind := ""
		if wiring.IsHook(c.Name) {
			kind = " (hook)"
		}
		fmt.Fprintf(tw, "  %s\t%s%s\n", c.Name, c.Summary, kind)
	}
	fmt.Fprintf(tw, "  %s\t%s\n", "bundle", "write the plugin bundle: binaries for every platform, launcher, hooks.json, plugin.json")
	tw.Flush()
	fmt.Fprintf(w, "\n%s <command> --help shows a command's usage; %s --version its build.\n", Name, Name)
}

// Main is Run with the process's own name, arguments, streams and
// environment.
func Main() int {
	return Run(os.Args[0], os.Args[1:], os.Stdin, os.Stdout, os.Stderr, cli.OSEnv())
}
