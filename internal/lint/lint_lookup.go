package lint

import "os"

// This file lets a writer lint against an id map it keeps itself (the
// writers' index) instead of one read from every corpus record.

// NewIDMap returns the id map that declares, for each id of files, the
// records listed (in corpus order, one path per distinct file). It answers
// only for the ids it holds: a caller passes it every id the lint will ask
// about.
func NewIDMap(files map[string][]string) *IDMap {
	if files == nil {
		files = map[string][]string{}
	}
	return &IDMap{files: files}
}

// ReadLintID reads the record at name as the lint's id pass reads a corpus
// file (up to its closing fence, at most [MaxFrontmatter] bytes, never
// following a final symlink or waiting on a FIFO) and returns the id that
// pass would map it under: "" for a file declaring none, or whose
// frontmatter does not close within MaxFrontmatter. err is the read error
// (the file then declares nothing). buf is scratch space, returned for reuse.
func ReadLintID(name string, buf []byte) (id string, _ []byte, err error) {
	p, buf := readLint(name, buf)
	if p.err == errFrontmatterTooLong {
		return "", buf, nil
	}
	if p.err != nil {
		return "", buf, p.err
	}
	return recordID(p.fm), buf, nil
}

// LintRefs returns what a lint of content asks of the corpus id map: the
// id the record declares (as the map keys it) and the ids its links name.
func LintRefs(content []byte) (id string, links []string) {
	fm := parseLint(content)
	if !fm.Present {
		return "", nil
	}
	return recordID(fm), linkTokens(fm, fm.Lines())
}

// LintTargetsWith is [LintTargets] with the corpus id map supplied by
// resolve instead of read from every corpus record: resolve is called once,
// with every id the targets declare or link to, and must return the map for
// (at least) those ids, as [LintTargets]'s pass over the corpus would have
// built it. Its error is returned as is.
func LintTargetsWith(root string, targets []string, resolve func(ids []string) (*IDMap, error)) (*LintResult, error) {
	fi, err := os.Stat(root)
	if err != nil || !fi.IsDir() {
		return nil, &LintRootError{Root: root, Err: ErrRootNotDir}
	}
	l := &linter{root: root, parsed: map[string]parsedFile{}}
	var need []string
	buf := make([]byte, 0, 16<<10)
	for _, f := range targets {
		if f == "" || !IsLintableRecord(f) {
			continue
		}
		if _, done := l.parsed[f]; done {
			continue
		}
		var p parsedFile
		p, buf = readLint(l.abs(f), buf)
		l.parsed[f] = p
		if p.err == nil && p.fm.Present {
			need = append(need, recordID(p.fm))
			need = append(need, linkTokens(p.fm, p.fm.Lines())...)
		}
	}
	if l.ids, err = resolve(need); err != nil {
		return nil, err
	}
	return l.lintTargets(targets), nil
}
