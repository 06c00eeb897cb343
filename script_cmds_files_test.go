package procedures_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdLookPath sets an environment variable to the absolute path of a
// program found on the script's PATH, so a later step can run it with an
// empty PATH.
//
//	lookpath enforce-frontmatter ENFORCE
func cmdLookPath(ts *testscript.TestScript, neg bool, args []string) {
	usage(ts, neg, len(args) == 2, "lookpath <program> <VAR>")
	ts.Setenv(args[1], lookPath(ts, args[0]))
}

// lookPath is the absolute path of program on the script's PATH.
func lookPath(ts *testscript.TestScript, program string) string {
	for dir := range strings.SplitSeq(ts.Getenv("PATH"), string(os.PathListSeparator)) {
		for _, name := range []string{program, program + ".exe"} {
			p := filepath.Join(dir, name)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				return p
			}
		}
	}
	ts.Fatalf("lookpath: %s not found on PATH", program)
	return ""
}

// cmdChomp removes the final LF of a file (txtar always ends a file with
// one), failing if there is none: it makes the "no final LF" fixtures.
//
//	chomp r11/references/decisions/d03.md
func cmdChomp(ts *testscript.TestScript, neg bool, args []string) {
	usage(ts, neg, len(args) == 1, "chomp <file>")
	name := ts.MkAbs(args[0])
	data, err := os.ReadFile(name)
	ts.Check(err)
	if !strings.HasSuffix(string(data), "\n") {
		ts.Fatalf("chomp: %s does not end in LF", args[0])
	}
	ts.Check(os.WriteFile(name, data[:len(data)-1], 0o666))
}

// cmdCRLF rewrites a file with CRLF line ends (txtar archives keep LF).
//
//	crlf kb/references/decisions/crlf.md
func cmdCRLF(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: crlf <file>")
	}
	path := ts.MkAbs(args[0])
	b, err := os.ReadFile(path)
	ts.Check(err)
	s := strings.ReplaceAll(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n", "\r\n")
	ts.Check(os.WriteFile(path, []byte(s), 0o666))
}

// cmdFixture copies a fixture of the repository (a file or a tree under
// testdata/, relative to the repository root) into the script's work dir, so
// a scenario runs against the checked-in fixture itself.
//
//	fixture testdata/plugins plugins
//	fixture testdata/hook/posttooluse-skill-forked.json payload.json
func cmdFixture(ts *testscript.TestScript, neg bool, args []string) {
	usage(ts, neg, len(args) == 2, "fixture <testdata/...> <dst>")
	src := filepath.Clean(args[0])
	if !strings.HasPrefix(src, "testdata"+string(filepath.Separator)) {
		ts.Fatalf("fixture: source %q is not under testdata/", args[0])
	}
	dst := ts.MkAbs(args[1])
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o777)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o666)
	})
	ts.Check(err)
}

// cmdSizeAtLeast fails unless file holds at least n bytes, so a fixture that
// must exceed a pipe buffer cannot silently shrink.
//
//	sizeatleast references/decisions/big.md 65537
func cmdSizeAtLeast(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: sizeatleast <file> <bytes>")
	}
	n, err := strconv.Atoi(args[1])
	if err != nil {
		ts.Fatalf("sizeatleast: bad size %q", args[1])
	}
	fi, err := os.Stat(ts.MkAbs(args[0]))
	ts.Check(err)
	if fi.Size() < int64(n) {
		ts.Fatalf("%s holds %d bytes, want at least %d", args[0], fi.Size(), n)
	}
}

// cmdExpandEnv rewrites each file in place with $VAR and ${VAR} replaced
// from the script's environment (hook payloads need absolute $WORK paths).
//
//	expandenv bad.json good.json
func cmdExpandEnv(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: expandenv <file>...")
	}
	for _, f := range args {
		b, err := os.ReadFile(ts.MkAbs(f))
		ts.Check(err)
		ts.Check(os.WriteFile(ts.MkAbs(f), []byte(os.Expand(string(b), ts.Getenv)), 0o666))
	}
}

// cmdAssemble writes dst from parts, in order: a file of the work dir, or
// "pad:N" (filler "pad_NNNNNN: xxx…" key lines adding at least N bytes), or
// "line:KEY:N" (one "KEY: [k0, k1, …]" flow-list line of at least N bytes),
// so a scenario can put keys before, after and around a block bigger than a
// pipe buffer or a bufio.Scanner line.
//
//	assemble kb/references/decisions/big.md head.txt pad:70000 tail.txt
func cmdAssemble(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: assemble <dst> <file|pad:N|line:KEY:N>...")
	}
	var sb strings.Builder
	for _, part := range args[1:] {
		switch {
		case strings.HasPrefix(part, "pad:"):
			n, err := strconv.Atoi(part[len("pad:"):])
			if err != nil || n <= 0 {
				ts.Fatalf("assemble: bad part %q", part)
			}
			for i, start := 0, sb.Len(); sb.Len()-start < n; i++ {
				fmt.Fprintf(&sb, "pad_%06d: %s\n", i, strings.Repeat("x", 60))
			}
		case strings.HasPrefix(part, "line:"):
			key, num, ok := strings.Cut(part[len("line:"):], ":")
			n, err := strconv.Atoi(num)
			if !ok || key == "" || err != nil || n <= 0 {
				ts.Fatalf("assemble: bad part %q", part)
			}
			start := sb.Len()
			sb.WriteString(key + ": [k0")
			for i := 1; sb.Len()-start < n; i++ {
				fmt.Fprintf(&sb, ", k%d", i)
			}
			sb.WriteString("]\n")
		default:
			b, err := os.ReadFile(ts.MkAbs(part))
			ts.Check(err)
			sb.Write(b)
		}
	}
	dst := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(filepath.Dir(dst), 0o777))
	ts.Check(os.WriteFile(dst, []byte(sb.String()), 0o666))
}

// cmdSizedFile makes a file of an exact size for the bounded-cost
// scenarios: the content of headfile (a file of the script, may be "-" for
// none), then padding up to size bytes. "spaces" pads with real spaces
// (written); "sparse" extends the file with os.Truncate, so a 2 GB record
// costs no disk. A size with a suffix K, M or G is in KiB, MiB, GiB; a
// trailing "+N" adds N bytes.
//
//	sizedfile spaces|sparse <path> <size> <headfile>
func cmdSizedFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: sizedfile spaces|sparse <path> <size> <headfile>")
	}
	size := parseSize(ts, args[2])
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
		ts.Fatalf("sizedfile: unknown padding %q", args[0])
	}
}

func parseSize(ts *testscript.TestScript, s string) int64 {
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

// cmdChownNobody gives each path to uid/gid 65534. Only root can
// (guard it with [!root] skip).
//
//	chown-nobody <path>...
func cmdChownNobody(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: chown-nobody <path>...")
	}
	if os.Geteuid() != 0 {
		ts.Fatalf("chown-nobody: needs root to give a path to another user (guard it with [!root] skip)")
	}
	for _, p := range args {
		ts.Check(os.Chown(ts.MkAbs(p), 65534, 65534))
	}
}
