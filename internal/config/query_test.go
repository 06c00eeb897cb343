package config

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// belowTheDoor are the packages the record commands pass their setting
// down to: none of them reads the environment, so none imports this
// package.
var belowTheDoor = []string{
	"internal/index", "internal/writerindex", "internal/cachefile",
	"internal/recordwrite", "internal/lint",
}

// The record commands read their setting once, at the door: the packages
// they pass it to take typed options and never import internal/config.
func TestIndexAndWritersTakeTypedOptions(t *testing.T) {
	fset := token.NewFileSet()
	for _, dir := range belowTheDoor {
		files, _ := filepath.Glob(filepath.Join("../..", dir, "*.go"))
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, im := range f.Imports {
				if p, _ := strconv.Unquote(im.Path.Value); p == "github.com/procedures-go/procedures/internal/config" {
					t.Errorf("%s imports internal/config: take the setting as options from the command", strings.TrimPrefix(name, "../../"))
				}
			}
		}
	}
}

// QueryFrom is the whole of query-records' setting, read in one call.
func TestQueryFrom(t *testing.T) {
	cache := t.TempDir()
	env := map[string]string{
		"HOME": "/h", "CODEX_ROOT": "/codex", "QUERY_RECORDS_EXTRA_STORES": "extra /abs",
		"XDG_CACHE_HOME": cache, "PROCEDURES_NO_INDEX": "1", "QUERY_RECORDS_LIMIT": "",
		"QUERY_RECORDS_REL_RATIO": "0.5", "QUERY_RECORDS_RECALL_FILE": "m.jsonl", "GOGC": "100",
	}
	q := QueryFrom(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if q.Root != "/codex" || q.NoHome || !q.Index.Off || q.Index.Dir != filepath.Join(cache, "procedures") ||
		!q.LimitSet || q.Limit != "" || q.RelRatio != "0.5" || q.RecallFile != "m.jsonl" || !q.GCSet || q.MemLimitSet {
		t.Errorf("QueryFrom = %+v", q)
	}
	if n := len(q.Stores); n == 0 || q.Stores[n-1] != "extra" || len(q.Rejected) != 1 || q.Rejected[0] != "/abs" {
		t.Errorf("stores %q, rejected %q", q.Stores, q.Rejected)
	}
	for _, c := range []struct {
		env    map[string]string
		noHome bool
	}{
		{map[string]string{}, true},
		{map[string]string{"HOME": ""}, false},
		{map[string]string{"CODEX_ROOT": "/c"}, false},
		{map[string]string{"QUERY_RECORDS_ROOT": "/q"}, false},
	} {
		if got := QueryFrom(func(k string) (string, bool) { v, ok := c.env[k]; return v, ok }).NoHome; got != c.noHome {
			t.Errorf("%v: NoHome %v, want %v", c.env, got, c.noHome)
		}
	}
	if got := QueryFrom(nil); !got.NoHome || got.Index.Off {
		t.Errorf("QueryFrom(nil) = %+v", got)
	}
}

// WriterFrom's root is $CODEX_ROOT, else $HOME/.claude, and unset when
// neither is (empty counting as unset).
func TestWriterFrom(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		root string
		set  bool
	}{
		{map[string]string{"CODEX_ROOT": "/c", "HOME": "/h"}, "/c", true},
		{map[string]string{"HOME": "/h"}, "/h/.claude", true},
		{map[string]string{"HOME": "", "CODEX_ROOT": ""}, "", false},
	} {
		w := WriterFrom(func(k string) string { return c.env[k] })
		if w.Root != c.root || w.RootSet != c.set {
			t.Errorf("%v: root %q set %v, want %q %v", c.env, w.Root, w.RootSet, c.root, c.set)
		}
	}
	if w := WriterFrom(func(k string) string { return map[string]string{"DECISIONS_DIR": "/d"}[k] }); w.Targets.Decisions != "/d" {
		t.Errorf("targets %+v", w.Targets)
	}
}
