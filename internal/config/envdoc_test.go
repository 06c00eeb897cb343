package config

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the generated table of docs/environment.md from Vars")

// envDoc is the page whose table of variables is generated from Vars.
const envDoc = "../../docs/environment.md"

// The lines around the generated table.
const (
	generatedBegin = "<!-- generated from internal/config's Vars by `go test ./internal/config -run TestEnvironmentDocIsGenerated -update`; do not edit by hand -->"
	generatedEnd   = "<!-- end of the generated table -->"
)

// mdCell makes a text safe in a Markdown table cell: no column break, no
// HTML tag.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;").Replace(s)
}

// renderVars is the generated table: one row a variable, in Vars' order.
func renderVars(vars []Var) string {
	var b strings.Builder
	b.WriteString("| variable | default (unset or empty) | what it sets, and who reads it |\n|---|---|---|\n")
	for _, v := range vars {
		b.WriteString("| `" + v.Name + "` | " + mdCell(v.Default) + " | " + mdCell(v.Doc) + " |\n")
	}
	return b.String()
}

// docs/environment.md holds, between its markers, exactly the table
// renderVars makes of Vars: a variable declared, dropped or reworded here
// fails this test until the page is regenerated with -update.
func TestEnvironmentDocIsGenerated(t *testing.T) {
	b, err := os.ReadFile(envDoc)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	head, rest, ok := strings.Cut(page, generatedBegin+"\n")
	if !ok {
		t.Fatalf("%s lacks the line %s", envDoc, generatedBegin)
	}
	table, tail, ok := strings.Cut(rest, generatedEnd+"\n")
	if !ok {
		t.Fatalf("%s lacks the line %s", envDoc, generatedEnd)
	}
	want := renderVars(Vars())
	if table == want {
		return
	}
	if *update {
		if err := os.WriteFile(envDoc, []byte(head+generatedBegin+"\n"+want+generatedEnd+"\n"+tail), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s is stale: run go test ./internal/config -run TestEnvironmentDocIsGenerated -update\nhave:\n%s\nwant:\n%s", envDoc, table, want)
}
