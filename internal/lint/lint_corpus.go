package lint

import (
	"path"
	"strings"

	"github.com/procedures-go/procedures/internal/corpus"
)

// IsLintableRecord reports whether the root-relative path f names a record
// the lint checks: <store>/**/*.md under one of the ten record stores, not
// INDEX.md, and not under _archived, node_modules, steps or templates. The
// test is purely textual, on the path as given.
func IsLintableRecord(f string) bool {
	return inRecordStore(f) && !excludedFromLint(f)
}

// IsEditableSubdocument reports whether f is a store path the lint skips
// silently: a procedure's steps/ or templates/ file, or an archived record.
func IsEditableSubdocument(f string) bool {
	return inRecordStore(f) && (strings.Contains(f, "_archived") ||
		strings.Contains(f, "/steps/") || strings.Contains(f, "/templates/"))
}

func inRecordStore(f string) bool {
	if !strings.HasSuffix(f, ".md") || path.Base(f) == "INDEX.md" {
		return false
	}
	for _, s := range corpus.Stores() {
		if strings.HasPrefix(f, s+"/") {
			return true
		}
	}
	return false
}

func excludedFromLint(f string) bool {
	for _, x := range []string{"_archived", "/node_modules/", "/steps/", "/templates/"} {
		if strings.Contains(f, x) {
			return true
		}
	}
	return false
}

// lintCorpusFiles lists the records the whole-corpus lint checks: the
// corpus of the ten record stores (symlinked store directories followed),
// minus node_modules, steps and templates paths, in byte order. Directories
// that could not be read are returned as errors.
func lintCorpusFiles(root string) ([]string, []error) {
	all, skipped := corpus.Enumerate(root, corpus.Stores())
	files := all[:0]
	for _, f := range all {
		if IsLintableRecord(f) {
			files = append(files, f)
		}
	}
	return files, skipped
}
