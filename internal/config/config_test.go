package config

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/wiring"
)

// readByNoGoBinary are variables of docs/environment.md no Go code here
// reads by name, each with who does. The test fails both for a documented
// variable missing from the config table and listed nowhere here, and for a
// line here whose variable the table declares.
var readByNoGoBinary = map[string]string{
	// hooks.json finds the launcher with it; doctor expands it in hook
	// commands, never reads it
	"CLAUDE_PLUGIN_ROOT": "hooks.json",
	// the sh launcher's mktemp -d (a Go test helper's os.MkdirTemp aside)
	"TMPDIR": "launcher",
	// only inside the standard library: os/exec's LookPath (doctor's shell,
	// procedures bundle's go build)
	"PATH": "os/exec",
}

// docVars returns the variables of docs/environment.md's hand-written
// table (its "In detail" section): every `NAME` in a row's first cell.
func docVars(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(envDoc)
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n## In detail\n")
	if !ok {
		t.Fatalf("%s has no In detail section", envDoc)
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	name := regexp.MustCompile("`([A-Z][A-Z0-9_]*)`")
	var out []string
	for _, line := range strings.Split(sec, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cell := strings.Split(line, "|")[1]
		for _, m := range name.FindAllStringSubmatch(cell, -1) {
			out = append(out, m[1])
		}
	}
	if len(out) < 10 {
		t.Fatalf("found only %v in the tables of %s", out, envDoc)
	}
	slices.Sort(out)
	return out
}

// docs/environment.md's hand-written table and the config table list the
// same variables (those no Go code reads aside, see readByNoGoBinary).
func TestEnvironmentDocListsTheConfigTable(t *testing.T) {
	documented := docVars(t)
	declared := map[string]bool{}
	for _, v := range Vars() {
		if declared[v.Name] {
			t.Errorf("%s declared twice", v.Name)
		}
		declared[v.Name] = true
		if v.Doc == "" || v.Default == "" {
			t.Errorf("%s has no Doc or Default", v.Name)
		}
		if !slices.Contains(documented, v.Name) {
			t.Errorf("%s is declared in internal/config but not in docs/environment.md", v.Name)
		}
		if area, ok := readByNoGoBinary[v.Name]; ok {
			t.Errorf("%s is declared: delete its readByNoGoBinary line (%s)", v.Name, area)
		}
	}
	for _, name := range documented {
		if !declared[name] && readByNoGoBinary[name] == "" {
			t.Errorf("docs/environment.md lists %s, which internal/config does not declare", name)
		}
	}
	for name := range readByNoGoBinary {
		if !slices.Contains(documented, name) {
			t.Errorf("readByNoGoBinary lists %s, which docs/environment.md does not", name)
		}
	}
}

// readElsewhere are declared variables no reader here reads, with why.
var readElsewhere = map[string]string{
	"QUERY_RECORDS_K_FLOOR": "accepted and ignored, as upstream",
}

// Every variable a reader of this package asks for is declared: reading
// goes through the table.
func TestReadersReadOnlyDeclaredVars(t *testing.T) {
	declared := map[string]bool{}
	for _, v := range Vars() {
		declared[v.Name] = true
	}
	asked := map[string]bool{}
	getenv := func(k string) string {
		if !declared[k] {
			t.Errorf("read undeclared variable %s", k)
		}
		asked[k] = true
		return ""
	}
	TurnStateFrom(getenv)
	DigestFrom(getenv)
	for _, primary := range []string{QueryRecordsRoot, LintFrontmatterRoot, KnowledgeRoot} {
		RecordsRoot(getenv, primary)
	}
	RecordStores(getenv)
	lookup := func(k string) (string, bool) { return getenv(k), false }
	QueryRecordsFrom(lookup)
	HomeSet(lookup)
	GCSet(getenv)
	MemLimitSet(getenv)
	LogRecordFrom(getenv)
	FailOpenLogPath(getenv)
	EscapeLogPath(getenv)
	Entrypoint(getenv)
	BinDir(getenv)
	IndexOff(getenv)
	IndexDir(getenv)
	EvidenceCacheOff(getenv)
	for _, s := range wiring.Switches() {
		for _, name := range SwitchVars(s.Key()) {
			getenv(name)
		}
	}
	for name := range declared {
		if !asked[name] && readElsewhere[name] == "" {
			t.Errorf("%s is declared but no reader here reads it", name)
		}
	}
}
