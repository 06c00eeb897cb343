// Package logrecord is the log-record command: it appends a mistake row to
// mistakes.jsonl, or writes a decision, solution or failure-mode record
// that the frontmatter lint accepts.
//
// Usage:
//
//	log-record <mistake|decision|solution|failure-mode> [--flag value…]
//
// Diagnostics go to stderr, stdout stays empty; exit 0 on success, 1 on
// any error. The store root is $CODEX_ROOT, else $HOME/.claude; the
// targets are $MISTAKES_JSONL (default <root>/mistakes.jsonl),
// $DECISIONS_DIR, $SOLUTIONS_DIR and $FAILURE_MODES_DIR (default
// <root>/references/<store>).
package logrecord

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/recordwrite"
	"github.com/procedures-go/procedures/internal/writerindex"
)

// now is the clock (a seam for tests). Dates and timestamps are UTC.
var now = time.Now

const usage = "usage: log-record.sh <mistake|decision|solution|failure-mode> [flags]"

// Main runs log-record with args (without the program name).
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, env cli.Env) int {
	if len(args) > 0 && isHelp(args[0]) {
		fmt.Fprint(stdout, usageText())
		return 0
	}
	if code, done := help.Answer(args, stdout, stderr); done {
		return code
	}
	if answerKindHelp(args, stdout) {
		return 0
	}
	if len(args) == 0 {
		return fail(stderr, usage)
	}
	c := &run{kind: args[0], stderr: stderr, cfg: config.WriterFrom(env.Get), now: now().UTC()}
	spec, ok := kindFlags()[c.kind]
	if !ok {
		return fail(stderr, "unknown kind: "+shown(c.kind)+" (expected mistake|decision|solution|failure-mode)")
	}
	if err := c.parse(args[1:], spec); err != nil {
		return fail(stderr, err.Error())
	}
	if c.kind != "mistake" {
		for _, f := range bodyFlags {
			if v, ok := c.vals[f]; ok && !utf8.ValidString(v) {
				fmt.Fprintf(stderr, "log-record: invalid %s value: not valid UTF-8; nothing was written\n", f)
				return 2
			}
		}
	}
	var err error
	switch c.kind {
	case "mistake":
		err = c.mistake()
	case "failure-mode":
		err = c.failureMode()
	default:
		err = c.decisionOrSolution()
	}
	if err != nil {
		var rf *refusal
		if errors.As(err, &rf) {
			for _, l := range rf.findings {
				fmt.Fprintln(stderr, visible(l))
			}
		}
		return fail(stderr, err.Error())
	}
	return 0
}

// fail writes msg (control and invisible characters escaped, see visible)
// and returns 1.
func fail(stderr io.Writer, msg string) int {
	fmt.Fprintf(stderr, "log-record: %s\n", visible(msg))
	return 1
}

// bodyFlags are the record flags whose values go into the body, not the
// frontmatter (frontmatter values are checked when rendered): a value that
// is not valid UTF-8 is refused with exit 2 before anything is read.
var bodyFlags = []string{"--title", "--summary", "--body", "--mistake", "--correct"}

// kindFlags lists each kind's flags; true marks a flag that takes a value.
// It and the patterns below are made on first use, not at every start of
// the multi-call binary.
var kindFlags = sync.OnceValue(func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"mistake": valueFlags("ts", "project", "session", "category", "trigger", "description",
			"correction", "skill", "severity", "scenario-matched", "pattern", "face", "recurrence-of"),
		"decision": withSwitches(valueFlags("slug", "date", "title", "keywords", "links", "status",
			"project", "summary", "body"), "force"),
		"solution": withSwitches(valueFlags("slug", "date", "title", "keywords", "links", "status",
			"project", "summary", "body", "situation-tags", "resolve-after"), "force"),
		"failure-mode": withSwitches(valueFlags("slug", "date", "keywords", "rule", "mistake", "correct",
			"face-of", "status", "project", "links-scenario", "links-criterion", "mega"), "skip-gate", "force"),
	}
})

func valueFlags(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m["--"+n] = true
	}
	return m
}

func withSwitches(m map[string]bool, names ...string) map[string]bool {
	for _, n := range names {
		m["--"+n] = false
	}
	return m
}

// run is one invocation.
type run struct {
	kind   string
	stderr io.Writer
	cfg    config.Writer // the setting, read once by Main
	now    time.Time
	vals   map[string]string // value flags given, last one wins
	set    map[string]bool   // switches given
}

// parse reads "--name value" pairs and switches; a value is taken verbatim,
// even when it starts with "--".
func (c *run) parse(args []string, spec map[string]bool) error {
	c.vals, c.set = map[string]string{}, map[string]bool{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		takesValue, ok := spec[a]
		switch {
		case !ok:
			return fmt.Errorf("unknown %s flag: %s", c.kind, shown(a))
		case !takesValue:
			c.set[a] = true
		case i+1 >= len(args):
			return fmt.Errorf("%s requires a value", shown(a))
		default:
			c.vals[a] = args[i+1]
			i++
		}
	}
	return nil
}

func (c *run) get(flag, def string) string {
	if v := c.vals[flag]; v != "" {
		return v
	}
	return def
}

func (c *run) require(flags ...string) error {
	for _, f := range flags {
		if c.vals[f] == "" {
			if f == "--keywords" {
				return fmt.Errorf("%s requires --keywords (the record lint rejects an empty keyword list): pass at least one search keyword, e.g. --keywords '[retry, flaky-ci]'", c.kind)
			}
			return fmt.Errorf("%s requires %s", c.kind, f)
		}
	}
	return nil
}

// root is the resolved store root.
func (c *run) root() (string, error) {
	if !c.cfg.RootSet {
		return "", errors.New("cannot resolve the store root: neither CODEX_ROOT nor HOME is set")
	}
	return c.cfg.Root, nil
}

// dir is d (the store's variable), else <root>/<store>.
func (c *run) dir(d, store string) (string, error) {
	if d != "" {
		return d, nil
	}
	r, err := c.root()
	if err != nil {
		return "", err
	}
	return r + "/" + store, nil
}

func (c *run) mistakesFile() (string, error) {
	if f := c.cfg.Targets.Mistakes; f != "" {
		return f, nil
	}
	r, err := c.root()
	if err != nil {
		return "", err
	}
	return r + "/mistakes.jsonl", nil
}

func (c *run) mistake() error {
	if err := c.require("--category", "--description", "--correction", "--severity", "--trigger"); err != nil {
		return err
	}
	m := recordwrite.Mistake{
		TS:              c.get("--ts", c.now.Format("2006-01-02T15:04:05Z")),
		Project:         c.vals["--project"],
		Session:         c.vals["--session"],
		Category:        c.vals["--category"],
		Trigger:         c.vals["--trigger"],
		Description:     c.vals["--description"],
		Correction:      c.vals["--correction"],
		Skill:           c.vals["--skill"],
		Severity:        c.vals["--severity"],
		ScenarioMatched: c.vals["--scenario-matched"],
		Pattern:         c.vals["--pattern"],
		Face:            c.vals["--face"],
		RecurrenceOf:    c.vals["--recurrence-of"],
	}
	file, err := c.mistakesFile()
	if err != nil {
		return err
	}
	if err := recordwrite.Append(file, m.Row()); err != nil {
		return fmt.Errorf("cannot append to %s: %w", file, err)
	}
	fmt.Fprintf(c.stderr, "log-record: appended mistake to %s\n", visible(file))
	return nil
}

var slugRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`) })

// maxSlug keeps "<date>-<slug>.md" and the temporary file's name within
// the usual 255-byte name limit.
const maxSlug = 200

func checkSlug(v string) error {
	why := ""
	switch {
	case len(v) > maxSlug:
		why = fmt.Sprintf("at most %d characters", maxSlug)
	case !slugRE().MatchString(v):
		why = "must match ^[a-z0-9][a-z0-9._-]*$"
	case strings.Contains(v, ".."):
		why = "must not contain '..'"
	default:
		return nil
	}
	return fmt.Errorf("invalid --slug %s: %s", quoted(v), why)
}

var dateRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`) })

func checkDate(flag, v string) error {
	if !dateRE().MatchString(v) {
		return fmt.Errorf("invalid %s %s: must be a date YYYY-MM-DD", flag, quoted(v))
	}
	if _, err := time.Parse("2006-01-02", v); err != nil {
		return fmt.Errorf("invalid %s %s: not a real calendar date", flag, quoted(v))
	}
	return nil
}

// validate checks the slug and every date flag given.
func (c *run) validate(dateFlags ...string) error {
	if err := checkSlug(c.vals["--slug"]); err != nil {
		return err
	}
	for _, f := range dateFlags {
		if v, ok := c.vals[f]; ok && v != "" {
			if err := checkDate(f, v); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *run) today() string { return c.now.Format("2006-01-02") }

func (c *run) exists(file string) string {
	return fmt.Sprintf("%s '%s' already exists at %s — this script does not merge; hand-edit the file directly to add/revise content (every real update to these records has been made this way), or re-run with --force to OVERWRITE THE ENTIRE FILE (destroys all existing content — only for an intentional full rewrite).",
		c.kind, c.vals["--slug"], file)
}

// refusal is a record the lint rejects; findings are the lint's lines.
type refusal struct {
	file     string
	findings []string
}

func (r *refusal) Error() string {
	return "refusing to write " + r.file + ": the record fails the frontmatter lint (see above); nothing was written"
}

var optional = func(key, v string) []recordwrite.Field {
	if v == "" {
		return nil
	}
	return []recordwrite.Field{{Key: key, Value: v}}
}

func (c *run) decisionOrSolution() error {
	if err := c.require("--slug", "--keywords"); err != nil {
		return err
	}
	solution := c.kind == "solution"
	if err := c.validate("--date", "--resolve-after"); err != nil {
		return err
	}
	slug := c.vals["--slug"]
	date := c.get("--date", c.today())
	title := c.get("--title", slug)
	summary := c.get("--summary", title)
	targets := c.cfg.Targets
	envDir, store, prefix, status := targets.Decisions, recordwrite.DecisionsStore, "dec.", "active"
	if solution {
		envDir, store, prefix, status = targets.Solutions, recordwrite.SolutionsStore, "sol.", "resolved"
	}
	dir, err := c.dir(envDir, store)
	if err != nil {
		return err
	}
	file := dir + "/" + date + "-" + slug + ".md"
	fields := []recordwrite.Field{
		{Key: "id", Value: prefix + date + "-" + slug},
		{Key: "kind", Value: c.kind},
		{Key: "date", Value: date},
		{Key: "keywords", Kind: recordwrite.Fragment, Value: c.vals["--keywords"]},
		{Key: "links", Kind: recordwrite.Fragment, Value: c.get("--links", "{}")},
		{Key: "status", Value: c.get("--status", status)},
	}
	fields = append(fields, optional("project", c.vals["--project"])...)
	var body string
	if solution {
		fields = append(fields,
			recordwrite.Field{Key: "situation_tags", Kind: recordwrite.Fragment, Value: c.get("--situation-tags", "[]")},
			recordwrite.Field{Key: "resolve_after", Value: c.get("--resolve-after", c.now.AddDate(0, 3, 0).Format("2006-01-02"))})
		body = "## Symptom\n[pending]\n\n## Rule\n" + summary + "\n\n## Check\n[optional]\n\n## Recipe\n[optional]"
	} else {
		body = "## Goal\nStated: [pending]\nReal: [pending]\n\n## Values protocol\n[pending]\n\n## Chosen path\n" + summary + "\n"
		for _, h := range []string{"Autonomy verdict", "Consequences foreseen", "Consequences that materialized",
			"Outcome", "Process-soundness", "Regrets"} {
			body += "\n## " + h + "\n[pending]\n"
		}
	}
	if b, ok := c.vals["--body"]; ok && b != "" {
		body = b
	} else {
		body = strings.TrimRight(body, "\n")
	}
	rec := recordwrite.Record{Fields: fields, Body: []byte("# " + title + "\n\n" + body + "\n")}
	return c.write(file, rec, nil)
}

func (c *run) failureMode() error {
	if err := c.require("--slug", "--rule", "--keywords"); err != nil {
		return err
	}
	if err := c.validate("--date"); err != nil {
		return err
	}
	slug, rule := c.vals["--slug"], c.vals["--rule"]
	dir, err := c.dir(c.cfg.Targets.FailureModes, recordwrite.FailureModesStore)
	if err != nil {
		return err
	}
	file := dir + "/" + slug + ".md"
	fields := []recordwrite.Field{
		{Key: "id", Value: "fm." + slug},
		{Key: "kind", Value: "failure-mode"},
		{Key: "date", Value: c.get("--date", c.today())},
		{Key: "keywords", Kind: recordwrite.Fragment, Value: c.vals["--keywords"]},
		{Key: "rule", Kind: recordwrite.JSONString, Value: rule},
	}
	fields = append(fields, optional("face_of", c.vals["--face-of"])...)
	links := recordwrite.Field{Key: "links", Kind: recordwrite.FlowMap}
	for _, s := range []string{"scenario", "criterion"} {
		if v := c.vals["--links-"+s]; v != "" {
			links.Sub = append(links.Sub, recordwrite.Field{Key: s, Value: v})
		}
	}
	fields = append(fields, links)
	fields = append(fields, optional("mega", c.vals["--mega"])...)
	fields = append(fields, recordwrite.Field{Key: "verification", Value: "pending"},
		recordwrite.Field{Key: "status", Value: c.get("--status", "active")})
	fields = append(fields, optional("project", c.vals["--project"])...)
	body := "# " + slug + "\n\n## Mistake\n\n" + c.get("--mistake", "[pending]") + "\n\n## Correct\n\n" + c.get("--correct", rule) + "\n"
	gate := func() error {
		if c.set["--skip-gate"] || c.vals["--face-of"] != "" {
			return nil
		}
		return c.promotionGate(slug)
	}
	return c.write(file, recordwrite.Record{Fields: fields, Body: []byte(body)}, gate)
}

// promotionGate refuses a new failure mode seen fewer than three times in
// mistakes.jsonl (rows whose pattern is the slug).
func (c *run) promotionGate(slug string) error {
	jsonl, err := c.mistakesFile()
	if err != nil {
		return err
	}
	n := 0
	f, err := recordwrite.OpenRegular(jsonl)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("cannot read %s: %w", jsonl, err)
	default:
		n, err = recordwrite.CountPattern(f, slug)
		f.Close()
		if err != nil {
			return fmt.Errorf("cannot read %s: %w", jsonl, err)
		}
	}
	if n < 3 {
		return fmt.Errorf("failure-mode '%s' has %d occurrence(s) in %s; need >=3 to create a record (pass --skip-gate to override)", slug, n, jsonl)
	}
	return nil
}

// write renders rec, refuses it if the file exists without --force, runs
// gate (new files only), lints it in memory, and stores it: replaced
// atomically with --force, created exclusively otherwise.
func (c *run) write(file string, rec recordwrite.Record, gate func() error) error {
	force := c.set["--force"]
	_, statErr := os.Lstat(file)
	exists := statErr == nil
	if exists && !force {
		return errors.New(c.exists(file))
	}
	if !exists && gate != nil {
		if err := gate(); err != nil {
			return err
		}
	}
	content, err := rec.Render()
	if errors.Is(err, recordwrite.ErrInvalidUTF8) {
		var fe *recordwrite.FieldError
		errors.As(err, &fe)
		return fmt.Errorf("invalid value for %s: not valid UTF-8 (YAML frontmatter cannot hold it); nothing was written", fe.Key)
	}
	if err != nil {
		return fmt.Errorf("internal error: %w; nothing was written", err)
	}
	root := c.cfg.Root
	// The writers' index answers the lint's id questions without reading
	// every record (nil: none usable, the corpus is read).
	var ix *writerindex.Index
	lint := recordwrite.Lint
	if fi, err := os.Stat(root); err == nil && fi.IsDir() {
		if ix = writerindex.Open(root, writerindex.Options{Off: c.cfg.Index.Off, Dir: c.cfg.Index.Dir}); ix != nil {
			defer ix.Close()
			lint = func(root, file string, content []byte) recordwrite.LintReport {
				return recordwrite.LintWith(root, file, content, ix.Resolve)
			}
		}
	}
	if rep := lint(root, file, content); rep.Failed {
		return &refusal{file: file, findings: rep.Lines}
	}
	if err := os.MkdirAll(dirOf(file), 0o777); err != nil {
		return fmt.Errorf("cannot create %s: %w", dirOf(file), err)
	}
	if force && exists {
		fmt.Fprintf(c.stderr, "log-record: --force set — overwriting existing %s (prior content will be discarded)\n", visible(file))
	}
	rel, inRoot := strings.CutPrefix(file, root+"/")
	if inRoot && ix != nil {
		ix.Writing(path.Clean(rel)) // its directory as seen just before the write
	}
	if force {
		err = recordwrite.Replace(file, content)
	} else {
		err = recordwrite.Create(file, content)
		if errors.Is(err, fs.ErrExist) {
			return errors.New(c.exists(file))
		}
	}
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", file, err)
	}
	if inRoot && ix != nil {
		ix.Wrote(path.Clean(rel))
	}
	fmt.Fprintf(c.stderr, "log-record: wrote %s\n", visible(file))
	return nil
}

func dirOf(file string) string { return file[:strings.LastIndexByte(file, '/')] }
