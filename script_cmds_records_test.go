package procedures_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdRepoPath sets VAR to the absolute path of a path relative to the
// repository root (the test's working directory), so that a scenario can run
// the README's commands against the shipped testdata/kb itself.
//
//	repo-path VAR relpath
func cmdRepoPath(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! repo-path")
	}
	if len(args) != 2 {
		ts.Fatalf("usage: repo-path VAR relpath")
	}
	abs, err := filepath.Abs(args[1])
	ts.Check(err)
	if _, err := os.Stat(abs); err != nil {
		ts.Fatalf("repo-path: %v", err)
	}
	ts.Setenv(args[0], abs)
}

// cmdSurveyPaths does what a caller of query-records does with a survey:
// it cuts every line of the last command's stdout at the first " — ", keeps
// the first n paths (all without -n), optionally appends extra references,
// and sets VAR to the LF-joined list and VAR1, VAR2, ... to each path. It
// fails on a line without the separator or when fewer than n lines exist.
//
//	survey-paths [-n N] [-append ref]... VAR
func cmdSurveyPaths(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! survey-paths")
	}
	n := -1
	var extra []string
	for len(args) > 1 {
		switch args[0] {
		case "-n":
			v, err := strconv.Atoi(args[1])
			if err != nil || v < 1 {
				ts.Fatalf("survey-paths: bad -n %q", args[1])
			}
			n = v
		case "-append":
			extra = append(extra, args[1])
		default:
			ts.Fatalf("usage: survey-paths [-n N] [-append ref]... VAR")
		}
		args = args[2:]
	}
	if len(args) != 1 {
		ts.Fatalf("usage: survey-paths [-n N] [-append ref]... VAR")
	}
	out := ts.ReadFile("stdout")
	if out == "" {
		ts.Fatalf("survey-paths: the survey printed nothing")
	}
	var paths []string
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		path, _, ok := strings.Cut(line, " \u2014 ")
		if !ok {
			ts.Fatalf("survey-paths: survey line without ' \u2014 ': %q", line)
		}
		paths = append(paths, path)
	}
	if n > len(paths) {
		ts.Fatalf("survey-paths: want %d paths, the survey has %d", n, len(paths))
	}
	if n > 0 {
		paths = paths[:n]
	}
	paths = append(paths, extra...)
	for i, p := range paths {
		ts.Setenv(fmt.Sprintf("%s%d", args[0], i+1), p)
	}
	ts.Setenv(args[0], strings.Join(paths, "\n"))
}

// cmdEnvfile sets an environment variable to the content of a file minus
// exactly one trailing LF. It is the only way to put LF, TAB or other control
// bytes into an argument: `envfile P p.txt` then `--cat $P`.
//
//	envfile NAME file
func cmdEnvfile(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! envfile")
	}
	if len(args) != 2 {
		ts.Fatalf("usage: envfile NAME file")
	}
	data, err := os.ReadFile(ts.MkAbs(args[1]))
	ts.Check(err)
	ts.Setenv(args[0], strings.TrimSuffix(string(data), "\n"))
}

// cmdGenRecords writes count copies of a template file as
// <dir>/<prefix><NN>.md, replacing every "{N}" in the template with the
// zero-padded number (width = digits of count, so byte order = numeric
// order). With -body L it appends L filler lines to each file.
//
//	gen-records [-body L] template dir prefix count
func cmdGenRecords(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! gen-records")
	}
	body := 0
	if len(args) >= 2 && args[0] == "-body" {
		n, err := strconv.Atoi(args[1])
		if err != nil || n < 0 {
			ts.Fatalf("gen-records: bad -body %q", args[1])
		}
		body, args = n, args[2:]
	}
	if len(args) != 4 {
		ts.Fatalf("usage: gen-records [-body L] template dir prefix count")
	}
	tmpl := ts.ReadFile(args[0])
	dir := ts.MkAbs(args[1])
	count, err := strconv.Atoi(args[3])
	if err != nil || count < 1 {
		ts.Fatalf("gen-records: bad count %q", args[3])
	}
	ts.Check(os.MkdirAll(dir, 0o777))
	width := len(strconv.Itoa(count))
	for i := 1; i <= count; i++ {
		num := fmt.Sprintf("%0*d", width, i)
		var b strings.Builder
		b.WriteString(strings.ReplaceAll(tmpl, "{N}", num))
		for l := 0; l < body; l++ {
			fmt.Fprintf(&b, "filler line %d of record %s, long enough to make the dump large\n", l, num)
		}
		name := filepath.Join(dir, args[2]+num+".md")
		ts.Check(os.WriteFile(name, []byte(b.String()), 0o666))
	}
}

// qrStores is the fixed store list plus the vendor store,
// written out independently of the records package on purpose.
var qrStores = []string{
	"references/failure-modes", "references/decisions", "references/solutions",
	"references/procedures", "references/research", "plans",
	"references/principles", "references/invariants", "references/policies",
	"references/standards", "titw",
}

// cmdPathlistMin fails unless the record path list of the corpus under
// root (every regular *.md below a fixed store, one path plus LF each) is at
// least min bytes. It guards the large fixtures against being shrunk below
// the size that made the upstream SIGPIPE bug visible.
//
//	pathlist-min root min-bytes
func cmdPathlistMin(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! pathlist-min")
	}
	if len(args) != 2 {
		ts.Fatalf("usage: pathlist-min root min-bytes")
	}
	root := ts.MkAbs(args[0])
	min, err := strconv.Atoi(args[1])
	if err != nil || min < 1 {
		ts.Fatalf("pathlist-min: bad size %q", args[1])
	}
	total, files := 0, 0
	for _, store := range qrStores {
		base := filepath.Join(root, store)
		if fi, err := os.Stat(base); err != nil || !fi.IsDir() {
			continue
		}
		err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := d.Name()
			if !d.Type().IsRegular() || !strings.HasSuffix(name, ".md") || name == "INDEX.md" {
				return nil
			}
			rel, err := filepath.Rel(base, p)
			if err != nil {
				return err
			}
			path := store + "/" + filepath.ToSlash(rel)
			if strings.Contains(path, "_archived") {
				return nil
			}
			total += len(path) + 1
			files++
			return nil
		})
		ts.Check(err)
	}
	ts.Logf("pathlist-min: %d record paths, %d bytes of path list", files, total)
	if total < min {
		ts.Fatalf("pathlist-min: path list is %d bytes, want at least %d", total, min)
	}
}
