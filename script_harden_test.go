package procedures_test

import (
	"bytes"
	"os"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	registerScriptCmds(map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"harden-file": cmdHardenFile,
	})
}

// cmdHardenFile makes a file of an exact size for the bounded-cost
// scenarios: the content of headfile (a file of the script, may be "-" for
// none), then padding up to size bytes. "spaces" pads with real spaces
// (written); "sparse" extends the file with os.Truncate, so a 2 GB record
// costs no disk. A size with a suffix K, M or G is in KiB, MiB, GiB; a
// trailing "+N" adds N bytes.
//
//	harden-file spaces|sparse <path> <size> <headfile>
func cmdHardenFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: harden-file spaces|sparse <path> <size> <headfile>")
	}
	size := parseHardenSize(ts, args[2])
	var head []byte
	if args[3] != "-" {
		head = []byte(ts.ReadFile(args[3]))
	}
	path := ts.MkAbs(args[1])
	switch args[0] {
	case "spaces":
		pad := int(size) - len(head)
		ts.Check(os.WriteFile(path, append(head, bytes.Repeat([]byte(" "), max(pad, 0))...), 0o644))
	case "sparse":
		ts.Check(os.WriteFile(path, head, 0o644))
		ts.Check(os.Truncate(path, size))
	default:
		ts.Fatalf("harden-file: unknown padding %q", args[0])
	}
}

func parseHardenSize(ts *testscript.TestScript, s string) int64 {
	var extra int64
	for i := len(s) - 1; i > 0; i-- {
		if s[i] == '+' {
			n, err := strconv.ParseInt(s[i+1:], 10, 64)
			ts.Check(err)
			s, extra = s[:i], n
			break
		}
	}
	mult := int64(1)
	switch s[len(s)-1] {
	case 'K':
		mult = 1 << 10
	case 'M':
		mult = 1 << 20
	case 'G':
		mult = 1 << 30
	}
	if mult > 1 {
		s = s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	ts.Check(err)
	return n*mult + extra
}
