package config

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// notYetMapped are README variables whose area has not moved its reading
// here yet, each with the area that will. Whoever maps an area deletes its
// lines; the test fails both for a README variable missing from the table
// and listed nowhere here, and for a line here whose variable the table
// already declares.
var notYetMapped = map[string]string{
	// records (p1: internal/config/records.go)
	"QUERY_RECORDS_LIMIT": "records", "QUERY_RECORDS_REL_RATIO": "records", "QUERY_RECORDS_K_FLOOR": "records",
	"QUERY_RECORDS_RECALL_FILE": "records", "MISTAKES_JSONL": "records", "DECISIONS_DIR": "records",
	"SOLUTIONS_DIR": "records", "FAILURE_MODES_DIR": "records",
	// fail-open and escape logs (p3)
	"GATE_FAILOPEN_LOG": "failopen", "GATE_ESCAPE_LOG": "failopen",
	// the gates' switches and skills (wiring, internal/gate)
	"CLAUDE_PLUGIN_OPTION_ENABLE_HOW_DO_I_GATE": "gates", "PROCEDURES_ENABLE_HOW_DO_I_GATE": "gates",
	"CLAUDE_PLUGIN_OPTION_ENABLE_AM_I_DONE_GATE": "gates", "PROCEDURES_ENABLE_AM_I_DONE_GATE": "gates",
	"CLAUDE_PLUGIN_OPTION_ENABLE_FRONTMATTER_CHECK": "gates", "PROCEDURES_ENABLE_FRONTMATTER_CHECK": "gates",
	"CLAUDE_CODE_ENTRYPOINT": "gates", "PROCEDURES_BIN_DIR": "gates",
	// the index (p5)
	"PROCEDURES_NO_INDEX": "index",
	// read by no Go binary: hooks.json, the sh launcher, procedures bundle
	"CLAUDE_PLUGIN_ROOT": "none", "XDG_CACHE_HOME": "launcher", "TMPDIR": "launcher", "PATH": "bundle",
}

// readmeVars returns the variables of the README's "Environment variables"
// table: every `NAME` in a row's first cell.
func readmeVars(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n## Environment variables\n")
	if !ok {
		t.Fatal("README has no Environment variables section")
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
		t.Fatalf("found only %v in the README's table", out)
	}
	slices.Sort(out)
	return out
}

// The README's table and the config table list the same variables (those
// of areas not yet mapped aside, see notYetMapped).
func TestReadmeTableIsTheConfigTable(t *testing.T) {
	readme := readmeVars(t)
	declared := map[string]bool{}
	for _, v := range Vars() {
		if declared[v.Name] {
			t.Errorf("%s declared twice", v.Name)
		}
		declared[v.Name] = true
		if v.Doc == "" || v.Default == "" {
			t.Errorf("%s has no Doc or Default", v.Name)
		}
		if !slices.Contains(readme, v.Name) {
			t.Errorf("%s is declared in internal/config but not in the README's table", v.Name)
		}
		if area, ok := notYetMapped[v.Name]; ok {
			t.Errorf("%s is declared: delete its notYetMapped line (%s)", v.Name, area)
		}
	}
	for _, name := range readme {
		if !declared[name] && notYetMapped[name] == "" {
			t.Errorf("the README's table lists %s, which internal/config does not declare", name)
		}
	}
	for name := range notYetMapped {
		if !slices.Contains(readme, name) {
			t.Errorf("notYetMapped lists %s, which the README's table does not", name)
		}
	}
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
	for name := range declared {
		if !asked[name] {
			t.Errorf("%s is declared but no reader here reads it", name)
		}
	}
}
