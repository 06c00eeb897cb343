package lint

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/procedures-go/procedures/internal/corpus"
	"github.com/procedures-go/procedures/internal/frontmatter"
)

// Severity grades a lint finding: errors fail the lint, warnings do not.
type Severity int

const (
	SeverityError Severity = iota
	SeverityWarning
)

// Lint rule names, stable across releases (Finding.Rule).
const (
	RuleNotARecord    = "not-a-record"         // targeted path outside the record stores
	RuleMissingTarget = "missing-target"       // targeted path that is not a regular file
	RuleUnreadable    = "unreadable"           // the file could not be read
	RuleNoFrontmatter = "no-frontmatter"       // first line is not ---
	RuleYAML          = "invalid-yaml"         // block is not YAML; read line by line instead (warning)
	RuleRequiredKey   = "required-key"         // one of the six keys is missing
	RuleKeywordsEmpty = "keywords-empty"       // keywords: names no keyword
	RuleUnenforced    = "unenforced"           // principle without enforced_by: (warning)
	RuleProject       = "project-shape"        // project: is not <repo> or <owner>/<repo>
	RuleLink          = "link-unresolved"      // links: names an id no corpus record has
	RuleDuplicateID   = "duplicate-id"         // two corpus records share an id
	RuleRoot          = "root"                 // the lint root is not a directory
	RuleTooLong       = "frontmatter-too-long" // the frontmatter does not close within MaxFrontmatter bytes
)

// A Finding is one lint result. For per-file findings Message starts with
// "<File>: ". How a finding is printed is the caller's business
// (internal/lintmsg words it as the commands do).
type Finding struct {
	File     string // path relative to the root; "" for corpus-level findings
	Rule     string
	Severity Severity
	Message  string
}

// requiredKeys are the frontmatter keys every record must set, in check
// order; [RequiredKeys] returns a copy.
var requiredKeys = []string{"id", "kind", "date", "keywords", "links", "status"}

// RequiredKeys returns the frontmatter keys every record must set, in check
// order.
func RequiredKeys() []string { return slices.Clone(requiredKeys) }

// A Duplicate is an id that more than one corpus record declares.
type Duplicate struct {
	ID    string
	Files []string // every record declaring ID, in corpus order; Files[0] owns it
}

// Finding is d as one finding, as upstream names it: the owner and the last
// copy only.
func (d Duplicate) Finding() Finding {
	return Finding{Rule: RuleDuplicateID, Message: fmt.Sprintf("duplicate id '%s' in: %s %s",
		d.ID, d.Files[0], d.Files[len(d.Files)-1])}
}

// An IDMap maps each record id of the corpus to the files declaring it.
type IDMap struct {
	files map[string][]string
}

// Has reports whether some corpus record declares id.
func (m *IDMap) Has(id string) bool { _, ok := m.files[id]; return ok }

// Files returns the corpus records declaring id, in corpus order.
func (m *IDMap) Files(id string) []string { return slices.Clone(m.files[id]) }

// Duplicates returns every id declared by more than one record, sorted by id.
func (m *IDMap) Duplicates() []Duplicate {
	var out []Duplicate
	for id, files := range m.files {
		if len(files) > 1 {
			out = append(out, Duplicate{ID: id, Files: slices.Clone(files)})
		}
	}
	slices.SortFunc(out, func(a, b Duplicate) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// remove forgets every id file declares.
func (m *IDMap) remove(file string) {
	for id, files := range m.files {
		if files = slices.DeleteFunc(files, func(f string) bool { return f == file }); len(files) == 0 {
			delete(m.files, id)
		} else {
			m.files[id] = files
		}
	}
}

func (m *IDMap) add(id, file string) {
	if m.files == nil {
		m.files = map[string][]string{}
	}
	m.files[id] = append(m.files[id], file)
}

// A LintResult is the outcome of [LintCorpus] or [LintTargets].
type LintResult struct {
	Linted     int         // files counted as linted (the accounting line)
	Findings   []Finding   // per-file findings, in processing order
	Duplicates []Duplicate // reported duplicate ids, sorted by id
	IDs        *IDMap      // the corpus id map of pass 1
}

// Failed reports whether the lint fails: any error finding or duplicate.
func (r *LintResult) Failed() bool {
	if len(r.Duplicates) > 0 {
		return true
	}
	for _, f := range r.Findings {
		if f.Severity == SeverityError {
			return true
		}
	}
	return false
}

// ErrRootNotDir is returned (wrapped in a *LintRootError) when the lint root is
// not a readable directory; the lint then never looks anywhere else.
var ErrRootNotDir = errors.New("is not a directory")

// A LintRootError reports an unusable lint root.
type LintRootError struct {
	Root string
	Err  error
}

func (e *LintRootError) Error() string { return "root " + e.Root + " " + e.Err.Error() }
func (e *LintRootError) Unwrap() error { return e.Err }

// Finding is e as one corpus-level finding.
func (e *LintRootError) Finding() Finding { return Finding{Rule: RuleRoot, Message: e.Error()} }

// LintCorpus lints every record of the ten record stores under root.
func LintCorpus(root string) (*LintResult, error) {
	l, err := newLinter(root)
	if err != nil {
		return nil, err
	}
	r := &LintResult{IDs: l.ids}
	for _, err := range l.skipped {
		r.Findings = append(r.Findings, unreadable("", err))
	}
	for _, f := range l.corpus {
		l.lint(r, f, false)
	}
	r.Duplicates = l.ids.Duplicates()
	return r, nil
}

// LintTargets lints the named paths (relative to root, in order; empty ones
// skipped) against the whole corpus. Only duplicate ids that a target
// declares are reported.
func LintTargets(root string, targets []string) (*LintResult, error) {
	l, err := newLinter(root)
	if err != nil {
		return nil, err
	}
	return l.lintTargets(targets), nil
}

// lintTargets lints the named paths against l's id map: only duplicate ids
// that a target declares are reported.
func (l *linter) lintTargets(targets []string) *LintResult {
	r := &LintResult{IDs: l.ids}
	involved := map[string]bool{}
	for _, f := range targets {
		if f == "" {
			continue
		}
		if id, ok := l.lint(r, f, true); ok && id != "" {
			involved[id] = true
		}
	}
	for _, d := range l.ids.Duplicates() {
		if involved[d.ID] {
			r.Duplicates = append(r.Duplicates, d)
		}
	}
	return r
}

// LintRecord checks one record's content against ids (nil: links are not
// resolved) and returns its findings; file is the path printed in them.
// Unlike [LintContent] it does not ask whether file lies in a store, and it
// reports no duplicate ids.
func LintRecord(file string, content []byte, ids *IDMap) []Finding {
	r := &LintResult{}
	lintContent(r, file, content, ids)
	return r.Findings
}

// LintContent lints content as the record at the root-relative path file,
// against the corpus under root, as [LintTargets] would once content were
// written there: the file need not exist, and its copy on disk, if any, is
// replaced by content for the id map. Nothing is written.
func LintContent(root, file string, content []byte) (*LintResult, error) {
	l, err := newLinter(root)
	if err != nil {
		return nil, err
	}
	fm := parseLint(content)
	l.ids.remove(file)
	if id := recordID(fm); id != "" && !l.listed(id, file) {
		l.ids.add(id, file)
	}
	r := &LintResult{IDs: l.ids}
	if !l.lintable(r, file, true) {
		return r, nil
	}
	r.Linted++
	if id := lintFrontmatter(r, file, fm, l.ids); id != "" {
		for _, d := range l.ids.Duplicates() {
			if d.ID == id {
				r.Duplicates = append(r.Duplicates, d)
			}
		}
	}
	return r, nil
}

type linter struct {
	root    string
	corpus  []string
	skipped []error // store directories that could not be read
	ids     *IDMap
	parsed  map[string]parsedFile // pass 1's reading of each corpus file, reused by pass 2
}

// parsedFile is one corpus file as pass 1 read it: its frontmatter, or the
// error reading it gave.
type parsedFile struct {
	fm  *frontmatter.Frontmatter
	err error
}

func newLinter(root string) (*linter, error) {
	fi, err := os.Stat(root)
	if err != nil || !fi.IsDir() {
		return nil, &LintRootError{Root: root, Err: ErrRootNotDir}
	}
	files, skipped := lintCorpusFiles(root)
	l := &linter{root: root, corpus: files, skipped: skipped,
		ids: &IDMap{files: map[string][]string{}}, parsed: make(map[string]parsedFile, len(files))}
	read := readAllLint(l, files)
	for i, f := range files {
		p := read[i]
		l.parsed[f] = p // an error is reported when the file itself is linted
		if p.err != nil {
			continue
		}
		if id := recordID(p.fm); id != "" && !l.listed(id, f) {
			l.ids.add(id, f)
		}
	}
	return l, nil
}

// readAllLint reads and parses files on every core (at most 8 workers,
// one per 64 files), each result in its slot; the id map is then built
// from them in corpus order, so the result is what one worker would give.
func readAllLint(l *linter, files []string) []parsedFile {
	n := len(files)
	out := make([]parsedFile, n)
	corpus.InParallel(n, func(indexes iter.Seq[int]) {
		buf := make([]byte, 0, 16<<10)
		for i := range indexes {
			out[i], buf = readLint(l.abs(files[i]), buf)
		}
	})
	return out
}

// errFrontmatterTooLong marks a record whose frontmatter does not close
// within MaxFrontmatter bytes.
var errFrontmatterTooLong = errors.New("frontmatter too long")

// readLint reads a record as the lint needs it: up to its closing fence,
// never more than MaxFrontmatter bytes, never waiting on a FIFO. buf is
// scratch space, returned for reuse.
func readLint(name string, buf []byte) (parsedFile, []byte) {
	buf, capped, err := corpus.ReadFrontmatterHead(name, buf[:0])
	if err != nil {
		return parsedFile{err: &fs.PathError{Op: "read", Path: name, Err: err}}, buf
	}
	content := buf
	if capped {
		content = buf[:bytes.LastIndexByte(buf, '\n')+1] // complete lines only
	}
	content = bytes.Clone(content) // the parse points into it; buf is reused
	fm := parseLint(content)
	if capped && fm.Present && !fm.Terminated {
		return parsedFile{err: errFrontmatterTooLong}, buf
	}
	return parsedFile{fm: fm}, buf
}

// listed reports whether the file f already declares id under another
// name: a symlinked store that aliases another store reaches the
// same record twice, which is not a duplicate.
func (l *linter) listed(id, f string) bool {
	prev := l.ids.files[id]
	if len(prev) == 0 {
		return false
	}
	fi, err := os.Stat(l.abs(f))
	if err != nil {
		return false
	}
	for _, g := range prev {
		if gi, err := os.Stat(l.abs(g)); err == nil && os.SameFile(fi, gi) {
			return true
		}
	}
	return false
}

func (l *linter) abs(f string) string { return l.root + string(os.PathSeparator) + f }

// lintable reports whether f is a record the lint checks; a named target
// that is not gets a finding, unless it is an editable sub-document.
func (l *linter) lintable(r *LintResult, f string, targeted bool) bool {
	if IsLintableRecord(f) {
		return true
	}
	if targeted && !IsEditableSubdocument(f) {
		r.Findings = append(r.Findings, errf(f, RuleNotARecord,
			"not a lintable record (expected <store>/**/*.md under one of: %s; not INDEX.md, not _archived)",
			strings.Join(corpus.Stores(), ", ")))
	}
	return false
}

// lint lints one file into r and returns its id (ok false when skipped).
func (l *linter) lint(r *LintResult, f string, targeted bool) (id string, ok bool) {
	if !l.lintable(r, f, targeted) {
		return "", false
	}
	fi, err := os.Stat(l.abs(f))
	if err != nil || !fi.Mode().IsRegular() {
		if targeted {
			r.Findings = append(r.Findings, errf(f, RuleMissingTarget, "named target does not exist"))
		}
		return "", false
	}
	r.Linted++
	p, ok := l.parsed[f]
	if !ok { // a target outside the corpus listing, or spelled differently
		p, _ = readLint(l.abs(f), make([]byte, 0, 16<<10))
	}
	if p.err == errFrontmatterTooLong {
		r.Findings = append(r.Findings, errf(f, RuleTooLong,
			"frontmatter does not close within the first %d bytes (1 MiB); records are read no further", corpus.MaxFrontmatter))
		return "", true
	}
	if p.err != nil {
		r.Findings = append(r.Findings, unreadable(f, p.err))
		return "", true
	}
	return lintFrontmatter(r, f, p.fm, l.ids), true
}

// parseLint reads a record as the lint sees it: CRLF line ends are accepted.
func parseLint(content []byte) *frontmatter.Frontmatter {
	if bytes.Contains(content, []byte("\r\n")) {
		content = bytes.ReplaceAll(content, []byte("\r\n"), []byte("\n"))
	}
	return frontmatter.Parse(content)
}

// recordID is a record's id as the corpus map keys it: cut at its first
// blank, as the original lint did, so an id never holds whitespace.
func recordID(fm *frontmatter.Frontmatter) string {
	if !fm.Present {
		return ""
	}
	id := strings.TrimLeftFunc(lintScalar(fm, "id"), isSpaceRune)
	if i := strings.IndexFunc(id, isSpaceRune); i >= 0 {
		id = id[:i]
	}
	return id
}

// lintScalar is a top-level scalar: the YAML value, or in the line view
// the value of the FIRST "key:" line, as upstream read it,
// cut at its first blank, one outer quote pair removed.
func lintScalar(fm *frontmatter.Frontmatter, key string) string {
	if fm.YAMLErr == nil {
		return fm.Scalar(key)
	}
	v, _ := firstValue(fm.Lines(), key)
	return string(frontmatter.FirstTokenUnquoted([]byte(v)))
}

func isSpaceRune(r rune) bool { return r < 0x80 && frontmatter.IsSpace(byte(r)) }

// unreadable reports a file or store directory the lint could not read as
// "<path>: cannot be read: <reason>", path relative to the root (for a
// directory error, the path the error names).
func unreadable(file string, err error) Finding {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		if file == "" {
			file = pe.Path
		}
		err = pe.Err
	}
	return errf(file, RuleUnreadable, "cannot be read: %v", err)
}

var projectRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9._-]+(/[a-z0-9._-]+)?$`) })

func errf(file, rule, format string, a ...any) Finding {
	return Finding{File: file, Rule: rule, Message: file + ": " + fmt.Sprintf(format, a...)}
}

func lintContent(r *LintResult, f string, b []byte, ids *IDMap) string {
	return lintFrontmatter(r, f, parseLint(b), ids)
}

// lintFrontmatter checks one parsed record into r and returns its id.
func lintFrontmatter(r *LintResult, f string, fm *frontmatter.Frontmatter, ids *IDMap) string {
	add := func(x Finding) { r.Findings = append(r.Findings, x) }
	if !fm.Present {
		add(errf(f, RuleNoFrontmatter, "missing frontmatter block (first line is not '---')"))
		return ""
	}
	lines := fm.Lines()
	if fm.YAMLErr != nil {
		add(yamlFinding(f, fm))
	}
	for _, k := range requiredKeys {
		if !fm.Has(k) {
			add(errf(f, RuleRequiredKey, "frontmatter missing required key '%s:'", k))
		}
	}
	if keywordsEmpty(fm, lines) {
		add(errf(f, RuleKeywordsEmpty, "keywords: list is empty (AC21 requires at least one keyword)"))
	}
	if isPrinciple(f) && !fm.Has("enforced_by") {
		w := errf(f, RuleUnenforced, "principle has no 'enforced_by:' — aspirational (not enforced)")
		w.Severity = SeverityWarning
		add(w)
	}
	if fm.Has("project") {
		p := lintScalar(fm, "project")
		if !projectRE().MatchString(p) {
			add(errf(f, RuleProject, "project: '%s' is malformed — expected <repo> or <owner>/<repo>, characters [a-z0-9._-] (omit the key entirely for a corpus-wide record)", p))
		}
	}
	if ids != nil {
		for _, tok := range linkTokens(fm, lines) {
			if !ids.Has(tok) {
				add(errf(f, RuleLink, "links target '%s' resolves to no record id in the corpus", tok))
			}
		}
	}
	return recordID(fm)
}

// yamlFinding names the YAML error of fm and its line in the file, as a
// warning: the block is then checked line by line exactly as upstream did,
// so a record upstream passed still passes. When the decoder gave no line
// (an undefined alias, a second document) the line is looked up in the
// block; if even that fails the line is left out.
func yamlFinding(f string, fm *frontmatter.Frontmatter) Finding {
	line, msg := fm.YAMLErr.Line, fm.YAMLErr.Msg
	if line == 0 {
		line = locateYAMLError(fm.Block, msg)
	}
	var w Finding
	if line == 0 {
		w = errf(f, RuleYAML, "frontmatter is not valid YAML (%s); checked line by line", msg)
	} else {
		w = errf(f, RuleYAML, "frontmatter is not valid YAML (line %d: %s); checked line by line", line, msg)
	}
	w.Severity = SeverityWarning
	return w
}

// locateYAMLError returns the 1-based file line (the block starts on line 2)
// that a line-less YAML error is about, or 0. yaml.v3 leaves the line out of
// a scanner or parser error on the first line of the block; it never gives
// one for an undefined alias, nor does the records decoder for a second
// document, which are looked up in the block.
func locateYAMLError(block []byte, msg string) int {
	var match func(string) bool
	if name, ok := strings.CutPrefix(msg, "unknown anchor '"); ok {
		name, _, _ = strings.Cut(name, "'")
		match = func(l string) bool { return strings.Contains(l, "*"+name) }
	} else if msg == frontmatter.ErrMultiDoc.Error() {
		match = func(l string) bool {
			for _, m := range []string{"---", "..."} {
				if rest, ok := strings.CutPrefix(l, m); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
					return true
				}
			}
			return false
		}
	} else if isReaderError(msg) {
		match = func(l string) bool { return !utf8.ValidString(l) || strings.IndexFunc(l, notYAMLChar) >= 0 }
	} else {
		return 2
	}
	n := 2
	for l := range strings.Lines(string(block)) {
		if match(strings.TrimRight(l, "\r\n")) {
			return n
		}
		n++
	}
	return 0
}

// isReaderError reports whether msg is one of yaml.v3's character-level
// errors, which never carry a line.
func isReaderError(msg string) bool {
	for _, m := range []string{"UTF-8", "UTF-16", "Unicode", "surrogate", "control characters"} {
		if strings.Contains(msg, m) {
			return true
		}
	}
	return false
}

// notYAMLChar reports a valid rune that YAML does not allow in a stream.
func notYAMLChar(r rune) bool {
	if r == '\t' || r == '\n' || r == '\r' || r == 0x85 {
		return false
	}
	return r < 0x20 || (r >= 0x7F && r < 0xA0) || (r >= 0xD800 && r < 0xE000) || r == 0xFFFE || r == 0xFFFF
}

// firstValue is the value of the first "key:" line of the line view.
func firstValue(lines []frontmatter.KeyLine, key string) (string, bool) {
	for _, kl := range lines {
		if kl.Key == key {
			return kl.Value, true
		}
	}
	return "", false
}

func keywordsEmpty(fm *frontmatter.Frontmatter, lines []frontmatter.KeyLine) bool {
	if fm.YAMLErr == nil {
		for _, v := range fm.Leaves("keywords") {
			if v != "" {
				return false
			}
		}
		return true
	}
	v, _ := firstValue(lines, "keywords")
	v = strings.Join(strings.Fields(v), "")
	return v == "" || v == "[]"
}

var storeKeyRE = sync.OnceValue(func() *regexp.Regexp {
	var bases []string
	for _, s := range corpus.Stores() {
		bases = append(bases, regexp.QuoteMeta(path.Base(s)))
	}
	return regexp.MustCompile(`(` + strings.Join(bases, "|") + `):`)
})

// linkTokens returns the ids links: names. With valid YAML these are the leaf
// scalars; otherwise the upstream line-based tokenizer (never globbed).
func linkTokens(fm *frontmatter.Frontmatter, lines []frontmatter.KeyLine) []string {
	if fm.YAMLErr == nil {
		// A scalar naming several ids ("dec.a, dec.b") names each of them,
		// as upstream's tokenizer read it: ids hold no blank.
		var out []string
		for _, v := range fm.Leaves("links") {
			for _, tok := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || isSpaceRune(r) }) {
				if tok != "~" {
					out = append(out, tok)
				}
			}
		}
		return out
	}
	v, _ := firstValue(lines, "links")
	v = strings.NewReplacer("{", "", "}", "", "[", "", "]", "").Replace(v)
	v = storeKeyRE().ReplaceAllString(v, " ")
	v = strings.ReplaceAll(v, ",", " ")
	var out []string
	for _, tok := range strings.Fields(v) {
		tok = strings.NewReplacer(`"`, "", `'`, "").Replace(tok)
		if tok != "" && tok != "~" {
			out = append(out, tok)
		}
	}
	return out
}

func isPrinciple(f string) bool {
	return strings.HasPrefix(f, "references/principles/") && strings.HasSuffix(f, ".md")
}
