package procedures_test

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// Custom testscript commands for the query-records scenarios
// (testdata/script/qr_*.txtar).
func init() {
	registerScriptCmds(map[string]func(*testscript.TestScript, bool, []string){
		"qr-envfile":         cmdQREnvfile,
		"qr-gen":             cmdQRGen,
		"qr-pathlist-min":    cmdQRPathlistMin,
		"qr-exitcode-unpriv": cmdQRExitcodeUnpriv,
		"qr-trimlf":          cmdQRTrimLF,
		"qr-survey-paths":    cmdQRSurveyPaths,
		"qr-repo-path":       cmdQRRepoPath,
	})
}

// cmdQRRepoPath sets VAR to the absolute path of a path relative to the
// repository root (the test's working directory), so that a scenario can run
// the README's commands against the shipped testdata/kb itself.
//
//	qr-repo-path VAR relpath
func cmdQRRepoPath(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! qr-repo-path")
	}
	if len(args) != 2 {
		ts.Fatalf("usage: qr-repo-path VAR relpath")
	}
	abs, err := filepath.Abs(args[1])
	ts.Check(err)
	if _, err := os.Stat(abs); err != nil {
		ts.Fatalf("qr-repo-path: %v", err)
	}
	ts.Setenv(args[0], abs)
}

// cmdQRSurveyPaths does what a caller of query-records does with a survey:
// it cuts every line of the last command's stdout at the first " — ", keeps
// the first n paths (all without -n), optionally appends extra references,
// and sets VAR to the LF-joined list and VAR1, VAR2, ... to each path. It
// fails on a line without the separator or when fewer than n lines exist.
//
//	qr-survey-paths [-n N] [-append ref]... VAR
func cmdQRSurveyPaths(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! qr-survey-paths")
	}
	n := -1
	var extra []string
	for len(args) > 1 {
		switch args[0] {
		case "-n":
			v, err := strconv.Atoi(args[1])
			if err != nil || v < 1 {
				ts.Fatalf("qr-survey-paths: bad -n %q", args[1])
			}
			n = v
		case "-append":
			extra = append(extra, args[1])
		default:
			ts.Fatalf("usage: qr-survey-paths [-n N] [-append ref]... VAR")
		}
		args = args[2:]
	}
	if len(args) != 1 {
		ts.Fatalf("usage: qr-survey-paths [-n N] [-append ref]... VAR")
	}
	out := ts.ReadFile("stdout")
	if out == "" {
		ts.Fatalf("qr-survey-paths: the survey printed nothing")
	}
	var paths []string
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		path, _, ok := strings.Cut(line, " \u2014 ")
		if !ok {
			ts.Fatalf("qr-survey-paths: survey line without ' \u2014 ': %q", line)
		}
		paths = append(paths, path)
	}
	if n > len(paths) {
		ts.Fatalf("qr-survey-paths: want %d paths, the survey has %d", n, len(paths))
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

// cmdQRTrimLF removes the final LF of a file (txtar always ends a file with
// one), failing if there is none: it makes the "record without a final LF"
// fixtures.
//
//	qr-trimlf file
func cmdQRTrimLF(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! qr-trimlf")
	}
	if len(args) != 1 {
		ts.Fatalf("usage: qr-trimlf file")
	}
	name := ts.MkAbs(args[0])
	data, err := os.ReadFile(name)
	ts.Check(err)
	if !strings.HasSuffix(string(data), "\n") {
		ts.Fatalf("qr-trimlf: %s does not end in LF", args[0])
	}
	ts.Check(os.WriteFile(name, data[:len(data)-1], 0o666))
}

// cmdQREnvfile sets an environment variable to the content of a file minus
// exactly one trailing LF. It is the only way to put LF, TAB or other control
// bytes into an argument: `qr-envfile P p.txt` then `--cat $P`.
//
//	qr-envfile NAME file
func cmdQREnvfile(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! qr-envfile")
	}
	if len(args) != 2 {
		ts.Fatalf("usage: qr-envfile NAME file")
	}
	data, err := os.ReadFile(ts.MkAbs(args[1]))
	ts.Check(err)
	ts.Setenv(args[0], strings.TrimSuffix(string(data), "\n"))
}

// cmdQRGen writes count copies of a template file as
// <dir>/<prefix><NN>.md, replacing every "{N}" in the template with the
// zero-padded number (width = digits of count, so byte order = numeric
// order). With -body L it appends L filler lines to each file.
//
//	qr-gen [-body L] template dir prefix count
func cmdQRGen(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! qr-gen")
	}
	body := 0
	if len(args) >= 2 && args[0] == "-body" {
		n, err := strconv.Atoi(args[1])
		if err != nil || n < 0 {
			ts.Fatalf("qr-gen: bad -body %q", args[1])
		}
		body, args = n, args[2:]
	}
	if len(args) != 4 {
		ts.Fatalf("usage: qr-gen [-body L] template dir prefix count")
	}
	tmpl := ts.ReadFile(args[0])
	dir := ts.MkAbs(args[1])
	count, err := strconv.Atoi(args[3])
	if err != nil || count < 1 {
		ts.Fatalf("qr-gen: bad count %q", args[3])
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

// qrStores is the fixed store list plus the vendor store (spec §5.1),
// written out independently of the records package on purpose.
var qrStores = []string{
	"references/failure-modes", "references/decisions", "references/solutions",
	"references/procedures", "references/research", "plans",
	"references/principles", "references/invariants", "references/policies",
	"references/standards", "titw",
}

// cmdQRPathlistMin fails unless the record path list of the corpus under
// root (every regular *.md below a fixed store, one path plus LF each) is at
// least min bytes. It guards the large fixtures against being shrunk below
// the size that made the upstream SIGPIPE bug visible.
//
//	qr-pathlist-min root min-bytes
func cmdQRPathlistMin(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! qr-pathlist-min")
	}
	if len(args) != 2 {
		ts.Fatalf("usage: qr-pathlist-min root min-bytes")
	}
	root := ts.MkAbs(args[0])
	min, err := strconv.Atoi(args[1])
	if err != nil || min < 1 {
		ts.Fatalf("qr-pathlist-min: bad size %q", args[1])
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
	ts.Logf("qr-pathlist-min: %d record paths, %d bytes of path list", files, total)
	if total < min {
		ts.Fatalf("qr-pathlist-min: path list is %d bytes, want at least %d", total, min)
	}
}

// cmdQRExitcodeUnpriv is `exitcode` for scenarios that need a file the tool
// cannot read. Mode 000 does not stop root, so when the suite runs as root
// the program is run through setpriv as uid/gid 65534 (nobody), after the
// binary directory and the script's work directory (and its parent) are made
// traversable for others. As a non-root user the program runs directly.
//
//	qr-exitcode-unpriv <status> <program> [args...]
func cmdQRExitcodeUnpriv(ts *testscript.TestScript, neg bool, args []string) {
	expectStatus(ts, "qr-exitcode-unpriv", neg, args, func(prog string, args []string) (string, []string) {
		if os.Geteuid() != 0 {
			return prog, args
		}
		setpriv, err := exec.LookPath("setpriv")
		if err != nil {
			ts.Fatalf("qr-exitcode-unpriv: running as root and setpriv is not installed: cannot drop privileges, so an unreadable file cannot be made")
		}
		work := ts.Getenv("WORK")
		for _, dir := range []string{binDir, work, filepath.Dir(work)} {
			fi, err := os.Stat(dir)
			ts.Check(err)
			ts.Check(os.Chmod(dir, fi.Mode().Perm()|0o055))
		}
		return setpriv, append([]string{"--reuid=65534", "--regid=65534", "--clear-groups", prog}, args...)
	})
}
