// Package queryrecords implements the query-records command. query-records is the retrieval surface over the procedures record
// stores: ranked keyword and structural queries, a store-bounded --cat dump
// and a --recall search over mistakes.jsonl. It is a drop-in replacement for
// the bash query-records.sh.
//
// Usage:
//
//	query-records --list-stores
//	query-records [--keyword <terms>] [--kind <kind>] [--id <id>] [--links-to <id>]
//	              [--project <repo>] [--limit <N>] [--full] [--rel-ratio <X>] [--k-floor <N>]
//	query-records --recall <terms> [--limit <N>]
//	query-records --cat [--] <path> [<path> ...]
//
// The corpus root is $QUERY_RECORDS_ROOT, else $CODEX_ROOT, else
// $HOME/.claude. Exit status: 0 results or a genuine miss, 2 usage error, 3
// the corpus or recall store could not be read.
package queryrecords

import (
	"errors"
	"io"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/corpus"
)

// Main is the command; see the package doc. It never reads stdin.
func Main(args []string, _ io.Reader, stdout, stderr io.Writer, env cli.Env) int {
	if code, done := help.Answer(args, stdout, stderr); done {
		return code
	}
	// A closed stdout (| head) must end the run quietly, not kill it.
	signal.Ignore(syscall.SIGPIPE)
	s := config.QueryFrom(env) // the one read of the environment
	off, limit := collector(s)
	if off {
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
	}
	if limit {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(queryMemoryLimit))
	}
	return run(args, stdout, stderr, s)
}

// queryMemoryLimit is the heap below which a query never collects (Main
// turns Go's collector off and sets this soft memory limit, unless GOGC,
// or for the limit GOMEMLIMIT, is set). Most of what a query allocates
// (the store walk, the loaded index, the records) is live until the end of
// a run that lasts a fraction of a second, so a collection midway is work
// for nothing: it cost a warm query of 100,000 records a tenth of its
// time, marking a heap it still needed. A query of 100,000 records peaks
// at 40-115 MiB without one (at 1.0-1.4 times what GOGC=400 left); above
// the limit the runtime collects to stay near it.
const queryMemoryLimit = 1 << 30

// collector is what Main changes of Go's collector for its run: it turns
// it off unless GOGC is set, and sets the soft memory limit to
// queryMemoryLimit unless GOGC or GOMEMLIMIT is set (the runtime has then
// applied what they say).
func collector(s config.Query) (off, limit bool) {
	if s.GCSet {
		return false, false
	}
	return true, !s.MemLimitSet
}

// run is the whole command under the setting s; it returns the exit status.
func run(args []string, stdout, stderr io.Writer, s config.Query) int {
	out, err := execute(args, stderr, s, stdoutIsTerminal(stdout))
	if werr := writeAll(stdout, out); werr != nil && !errors.Is(werr, syscall.EPIPE) {
		printLines(stderr, "write stdout: "+werr.Error())
		return 1
	}
	if err != nil {
		printLines(stderr, messageLines(err)...)
	}
	return exitCode(err)
}

// exitCode is the one place errors become exit statuses: 2 for a refused
// request, 3 when the corpus or recall store could not be read, and 1 for
// what upstream left to bash (HOME unset).
func exitCode(err error) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, corpus.ErrUsage):
		return 2
	case errors.Is(err, corpus.ErrScan):
		return 3
	}
	return 1
}

func writeAll(w io.Writer, b []byte) error {
	if len(b) == 0 {
		return nil
	}
	_, err := w.Write(b)
	return err
}

// printLines writes each message to w behind the tool prefix, ending it
// with an LF. A message is written whole, LFs inside it included (the values
// it names are raw bytes).
func printLines(w io.Writer, msgs ...string) {
	var b []byte
	for _, m := range msgs {
		b = append(b, "query-records: "...)
		b = append(b, m...)
		b = append(b, '\n')
	}
	w.Write(b)
}
