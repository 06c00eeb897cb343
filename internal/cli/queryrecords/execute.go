package queryrecords

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/corpus"
	"github.com/procedures-go/procedures/internal/index"
	recallsearch "github.com/procedures-go/procedures/internal/recall"
	"github.com/procedures-go/procedures/internal/writerindex"
)

// valueFlags take the next argument verbatim as their value.
var valueFlags = map[string]bool{
	"--keyword": true, "--kind": true, "--id": true, "--links-to": true, "--recall": true,
	"--project": true, "--limit": true, "--rel-ratio": true, "--k-floor": true, "--search": true,
}

type options struct {
	val     map[string]string // value flags given (even with an empty value)
	full    bool
	cat     bool
	catArgs []string
}

func (o *options) get(flag string) string { return o.val[flag] }

func (o *options) given(flag string) bool {
	_, ok := o.val[flag]
	return ok
}

// parseArgs reads argv left to right; the first problem wins.
func parseArgs(args []string) (*options, error) {
	o := &options{val: map[string]string{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case valueFlags[a]:
			if o.given(a) {
				return nil, repeated(a)
			}
			if i+1 >= len(args) {
				return nil, usage(a + " needs a value")
			}
			o.val[a] = args[i+1]
			i++
		case a == "--full":
			o.full = true
		case a == "--cat":
			o.cat = true
			rest := args[i+1:]
			for j, p := range rest {
				if p == "--" {
					o.catArgs = append(o.catArgs, rest[j+1:]...)
					break
				}
				if strings.HasPrefix(p, "--") {
					return nil, usage("--cat is its own mode — it takes record paths, and cannot be combined with " + p)
				}
				o.catArgs = append(o.catArgs, p)
			}
			return o, nil
		default:
			return nil, usage("unknown flag: " + a)
		}
	}
	return o, nil
}

func repeated(flag string) error {
	lines := []string{flag + " given more than once — each flag may appear at most once."}
	if flag == "--keyword" {
		lines = append(lines, `to search several terms, put them in ONE string: --keyword "term1 term2" (ranked OR union).`)
	}
	return usage(lines...)
}

// parseLimit accepts any digit string (empty is 0); one too large for an
// int means no cap.
func parseLimit(s string) (int, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	if s == "" {
		return 0, true
	}
	n, err := strconv.ParseInt(s, 10, 0)
	if err != nil {
		return 0, true
	}
	return int(n), true
}

// parseRatio reads the longest decimal floating-point prefix after
// leading whitespace, like strtod limited to decimal; no number is 0.
func parseRatio(s string) float64 {
	i := 0
	for i < len(s) && strings.IndexByte(" \t\n\v\f\r", s[i]) >= 0 {
		i++
	}
	s = s[i:]
	j := 0
	if j < len(s) && (s[j] == '+' || s[j] == '-') {
		j++
	}
	digits := 0
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j, digits = j+1, digits+1
	}
	if j < len(s) && s[j] == '.' {
		j++
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j, digits = j+1, digits+1
		}
	}
	if digits == 0 {
		return 0
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && s[k] >= '0' && s[k] <= '9' {
			for k < len(s) && s[k] >= '0' && s[k] <= '9' {
				k++
			}
			j = k
		}
	}
	f, _ := strconv.ParseFloat(s[:j], 64) // out of range: ±Inf or 0, as strtod
	return f
}

// execute runs one invocation and returns what goes to stdout. Warnings go
// to stderr as they happen; the returned error is printed by run.
//
// vendorMark marks vendor stores in --list-stores (stdout is a terminal).
func execute(args []string, stderr io.Writer, s config.Query, vendorMark bool) ([]byte, error) {
	root, err := corpusRoot(s)
	if err != nil {
		return nil, err
	}
	if err := corpus.CheckRootSearchable(root); err != nil {
		printLines(stderr, messageLines(err)...)
		return nil, nil // a missing root is an empty result
	}
	stores := s.Stores
	stderr.Write(cli.ExtraStoreWarnings(s.Rejected))
	if len(args) > 0 && args[0] == "--list-stores" {
		return listStores(stores, vendorMark), nil
	}
	o, err := parseArgs(args)
	if err != nil {
		return nil, err
	}
	limit, err := o.limit(s.QueryRecords)
	if err != nil {
		return nil, err
	}
	if err := o.checkMode(); err != nil {
		return nil, err
	}
	if o.get("--recall") != "" {
		recallCap := recallsearch.DefaultCap
		if o.given("--limit") {
			recallCap = limit
		}
		return recall(o, root, s.RecallFile, recallCap)
	}
	opts := index.Options{Off: s.Index.Off, Dir: s.Index.Dir}
	var ix *index.Index // the stat-validated index, unless PROCEDURES_NO_INDEX
	if !o.cat {
		ix = index.ForQuery(root, stores, opts)
		if o.given("--search") { // its own index, with the records' term statistics
			ix = index.ForSearch(root, stores, opts)
		}
		defer ix.Close() // after query: its output is copied out of the records
	}
	open := ix.Corpus    // the stores' listings through the index too
	if o.cat || o.full { // dumps: read only the files the scan listed
		open = corpus.OpenIdentified
	}
	c, err := open(root, stores)
	if err != nil {
		printLines(stderr, messageLines(err)...)
		return nil, nil
	}
	for _, e := range c.Skipped {
		printLines(stderr, messageLines(e)...)
	}
	if o.cat {
		return cat(c, o.catArgs, func(read []string) { writerindex.ReadBy(root, read, opts) })
	}
	var out []byte
	if o.given("--search") {
		out, err = searchRecords(c, ix, o, root, limit, s.LimitSet)
	} else {
		out, err = query(c, ix, o, limit, s.RelRatio)
	}
	if err == nil && len(out) == 0 && (o.get("--keyword") != "" || o.get("--kind") != "" || o.given("--search")) && stderrIsTerminal(stderr) {
		printLines(stderr, "no records match") // for a person; scripts see upstream's silence
	}
	return out, err
}

// stdoutIsTerminal is the seam through which tests pretend stdout is a
// terminal.
var stdoutIsTerminal = cli.IsTerminal

// stderrIsTerminal is the seam through which tests pretend stderr is a
// terminal.
var stderrIsTerminal = cli.IsTerminal

// corpusRoot is $QUERY_RECORDS_ROOT, else $CODEX_ROOT, else $HOME/.claude;
// an unset HOME (with neither override) is an error, as in bash.
func corpusRoot(s config.Query) (string, error) {
	if s.NoHome {
		return "", &noHomeError{}
	}
	return s.Root, nil
}

// listStores is the --list-stores output: one store per line, as the bash
// original prints it (scripts read it). For a person (mark: stdout is a
// terminal) a vendor store is followed by a TAB and "(vendor)";
// corpus.VendorStores says which stores are vendor stores.
func listStores(stores []string, mark bool) []byte {
	var b []byte
	for _, s := range stores {
		b = append(b, s...)
		if mark && slices.Contains(corpus.VendorStores(), s) {
			b = append(b, "\t(vendor)"...)
		}
		b = append(b, '\n')
	}
	return b
}

// limit is --limit, else $QUERY_RECORDS_LIMIT (even empty), else 0: a digit
// string.
func (o *options) limit(q config.QueryRecords) (int, error) {
	text := "0"
	if o.given("--limit") {
		text = o.get("--limit")
	} else if q.LimitSet {
		text = q.Limit
	}
	limit, ok := parseLimit(text)
	if !ok {
		return 0, usage("--limit needs a non-negative integer (0 = uncapped)")
	}
	return limit, nil
}

// checkMode refuses --cat mixed with a query or --limit, --cat without a
// path, and a run with neither --cat nor a query.
func (o *options) checkMode() error {
	queryGiven := false
	for _, f := range []string{"--keyword", "--kind", "--id", "--links-to", "--recall", "--project"} {
		queryGiven = queryGiven || o.get(f) != ""
	}
	queryGiven = queryGiven || o.given("--search")
	switch {
	case !o.cat && !queryGiven:
		return usage("need at least one of --keyword/--kind/--id/--links-to/--recall/--project")
	case !o.cat:
		return nil
	case queryGiven || o.full:
		return usage("--cat is its own mode — it dumps the records you name, so it takes no query flags")
	case o.given("--limit"):
		return usage("--cat is its own mode — --limit caps a match set, and --cat has none")
	case len(o.catArgs) == 0:
		return usage("--cat needs at least one record path (space-separated).")
	}
	return nil
}

// cat dumps the records --cat names, all or nothing, and hands told the
// paths it read (for the writers' index: see [writerindex.ReadBy]).
func cat(c *corpus.Corpus, args []string, told func(read []string)) ([]byte, error) {
	dumps, err := c.Cat(catRefs(args))
	if err != nil {
		return nil, err
	}
	read := make([]string, len(dumps))
	for i, d := range dumps {
		read[i] = d.Path
	}
	told(read)
	var b []byte
	for _, d := range dumps {
		b = appendDump(b, d)
	}
	return b, nil
}

// fullCap is how many matched records --full dumps at most.
const fullCap = 10

// query runs the structural and keyword query: one "path — gloss" line per
// match, then with --full the dumps of the first fullCap matches.
func query(c *corpus.Corpus, ix *index.Index, o *options, limit int, ratioEnv string) ([]byte, error) {
	q := corpus.NewQuery()
	q.Keyword, q.Kind, q.ID = o.get("--keyword"), o.get("--kind"), o.get("--id")
	q.LinksTo, q.Project, q.Limit = o.get("--links-to"), o.get("--project"), limit
	rr, given := o.val["--rel-ratio"]
	if !given {
		rr = ratioEnv
	}
	if rr != "" {
		q.RelRatio = parseRatio(rr)
	}
	res, err := ix.Query(c, q)
	if err != nil {
		return nil, err
	}
	return matchLines(c, o, res)
}

// matchLines is a query's output: one "path — gloss" line per match, then
// with --full the dumps of the first fullCap matches.
func matchLines(c *corpus.Corpus, o *options, res []corpus.Record) ([]byte, error) {
	size := 0
	for _, r := range res {
		size += len(r.Path) + len(" — ") + len(r.Gloss) + 1
	}
	b := make([]byte, 0, size)
	for _, r := range res {
		b = append(append(append(append(b, r.Path...), " — "...), r.Gloss...), '\n')
	}
	if !o.full || len(res) == 0 {
		return b, nil
	}
	n := min(len(res), fullCap)
	dumps := make([]corpus.Dump, n)
	for i := range n {
		content, err := c.ReadFile(res[i].Path)
		if err != nil {
			return nil, &corpus.ScanError{Path: res[i].Path, Err: err}
		}
		dumps[i] = corpus.Dump{Path: res[i].Path, Content: content}
	}
	for _, d := range dumps {
		b = appendDump(b, d)
	}
	if len(res) > fullCap {
		b = append(b, "(--full: dumped 10 of "+strconv.Itoa(len(res))+" matched records — narrow the query, or read the rest with: --cat <paths>)\n"...)
	}
	return b, nil
}

// recall searches the recall store ($QUERY_RECORDS_RECALL_FILE, relative to
// the root, else <root>/mistakes.jsonl) and prints the most recent
// recallCap hits (0: all) under a count line.
func recall(o *options, root, fileEnv string, recallCap int) ([]byte, error) {
	for _, f := range []string{"--keyword", "--kind", "--id", "--links-to", "--project"} {
		if o.get(f) != "" {
			return nil, usage("--recall is its own mode — combine only with --limit")
		}
	}
	if o.full {
		return nil, usage("--recall is its own mode — combine only with --limit")
	}
	shown := fileEnv
	if shown == "" {
		shown = root + "/mistakes.jsonl"
	}
	name := shown
	if fileEnv != "" && !strings.HasPrefix(fileEnv, "/") && !filepath.IsAbs(fileEnv) {
		name = strings.TrimSuffix(root, "/") + "/" + fileEnv
	}
	if fi, err := os.Stat(name); err != nil || !fi.Mode().IsRegular() {
		return nil, &recallStoreError{shown: shown}
	}
	raw := o.get("--recall")
	terms := recallsearch.Terms(raw)
	if len(terms) == 0 {
		return nil, usage(noTokenLines("--recall", raw)...)
	}
	hits, err := recallsearch.File(name, terms)
	if se, ok := errors.AsType[*corpus.ScanError](err); ok {
		return nil, &recallScanError{shown: shown, err: se}
	}
	if err != nil {
		return nil, err
	}
	if len(hits) == 0 {
		return nil, nil
	}
	t := len(hits)
	var b []byte
	if recallCap > 0 && t > recallCap {
		b = append(b, "recall: "+strconv.Itoa(t)+" matched — showing the "+strconv.Itoa(recallCap)+" most recent (raise --limit for more)\n"...)
		hits = hits[t-recallCap:]
	} else {
		b = append(b, "recall: "+strconv.Itoa(t)+" matched\n"...)
	}
	for _, h := range hits {
		b = append(append(b, h...), '\n')
	}
	return b, nil
}
