package recordwrite

// This file is the only one that calls package records: the frontmatter
// parser, the frontmatter lint and the store list. Re-point it here when
// that API moves.

import (
	"errors"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/procedures-go/procedures/internal/corpus"
	"github.com/procedures-go/procedures/internal/frontmatter"
	"github.com/procedures-go/procedures/internal/lint"
	"github.com/procedures-go/procedures/internal/lintmsg"
)

// Store directories of the records log-record writes, relative to the root.
var (
	DecisionsStore    = store("references/decisions")
	SolutionsStore    = store("references/solutions")
	FailureModesStore = store("references/failure-modes")
)

func store(s string) string {
	for _, r := range corpus.Stores() {
		if r == s {
			return r
		}
	}
	panic("recordwrite: not a record store: " + s)
}

// parsed is a frontmatter read back with the records parser.
type parsed struct {
	fm *frontmatter.Frontmatter
}

func parse(content []byte) parsed { return parsed{frontmatter.Parse(content)} }

// ReadBack is a record file read back with the records parser.
type ReadBack struct {
	Clean  bool     // the block is present, closed and valid YAML
	Keys   []string // its column-0 keys, in order
	Scalar func(key string) string
	Leaves func(key string) []string
	Body   []byte
}

// Read reads content back with the records parser.
func Read(content []byte) ReadBack {
	p := parse(content)
	return ReadBack{Clean: p.clean(), Keys: p.keys(), Scalar: p.scalar, Leaves: p.leaves, Body: p.body()}
}

// clean reports whether the block is present, closed and valid YAML.
func (p parsed) clean() bool { return p.fm.Present && p.fm.Terminated && p.fm.YAMLErr == nil }

// keys lists the column-0 keys of the block, in order.
func (p parsed) keys() []string {
	var out []string
	for _, kl := range p.fm.Lines() {
		out = append(out, kl.Key)
	}
	return out
}

func (p parsed) scalar(key string) string   { return p.fm.Scalar(key) }
func (p parsed) leaves(key string) []string { return p.fm.Leaves(key) }
func (p parsed) body() []byte               { return p.fm.Body }

// A LintReport is what the frontmatter lint says about one record.
type LintReport struct {
	Lines  []string // the findings, as lint-frontmatter prints them
	Failed bool     // some finding is an error
}

// Lint checks content, the record about to be written at file, with the
// lint lint-frontmatter runs: links are resolved against the corpus under
// root (none when root is not a directory), and an id another corpus
// record already declares is a duplicate. Findings name the file relative
// to root when it lies under root.
func Lint(root, file string, content []byte) LintReport {
	return LintWith(root, file, content, nil)
}

// LintWith is [Lint] with the corpus id map supplied by resolve (as for
// lint.LintTargetsWith: the records declaring each id asked about)
// instead of read from every corpus record; a nil resolve, or one that
// fails, reads them.
func LintWith(root, file string, content []byte, resolve func(ids []string) (*lint.IDMap, error)) LintReport {
	name := file
	if rel, ok := strings.CutPrefix(file, root+"/"); ok && root != "" {
		name = path.Clean(rel)
	}
	ids := &lint.IDMap{}
	var err error = errNoResolve
	if fi, serr := os.Stat(root); resolve != nil && serr == nil && fi.IsDir() {
		id, links := lint.LintRefs(content)
		var m *lint.IDMap
		if m, err = resolve(append(links, id, parse(content).scalar("id"))); err == nil {
			ids = m
		}
	}
	if err != nil {
		if res, err := lint.LintTargets(root, nil); err == nil {
			ids = res.IDs
		}
	}
	var rep LintReport
	add := func(f lint.Finding) {
		rep.Lines = append(rep.Lines, lintmsg.Line(f))
		rep.Failed = rep.Failed || f.Severity == lint.SeverityError
	}
	for _, f := range lint.LintRecord(name, content, ids) {
		add(f)
	}
	id := parse(content).scalar("id")
	if id == "" {
		return rep
	}
	others := []string{}
	for _, f := range ids.Files(id) {
		if path.Clean(f) != name {
			others = append(others, f)
		}
	}
	if len(others) > 0 {
		files := append(others, name)
		slices.Sort(files) // corpus order
		add(lint.Duplicate{ID: id, Files: files}.Finding())
	}
	return rep
}

var errNoResolve = errors.New("recordwrite: no id map given")
