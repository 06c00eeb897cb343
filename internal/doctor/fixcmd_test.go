package doctor

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// fixCommands are the programs a fix may run: a fix is a command line, not
// advice.
var fixCommands = map[string]bool{
	"sh": true, "mv": true, "chmod": true, "mkdir": true, "export": true, "unset": true,
	"find": true, "cd": true, "go": true, "claude": true, "procedures": true,
}

// checkFixes fails t for a fix of r that is not POSIX sh commands, each
// running a program of fixCommands (or a procedures binary by its path).
// dump calls it, so every test that prints a report checks its fixes.
func checkFixes(t testing.TB, r *Report) {
	t.Helper()
	for _, p := range fixProblems(r) {
		t.Error(p)
	}
}

// fixProblems says what is wrong with each fix of r that is not a command.
func fixProblems(r *Report) []string {
	var out []string
	p := syntax.NewParser(syntax.Variant(syntax.LangPOSIX))
	for _, f := range r.Findings {
		if f.Fix == "" {
			continue
		}
		file, err := p.Parse(strings.NewReader(f.Fix), "")
		if err != nil {
			out = append(out, fmt.Sprintf("%s %s: the fix %q is not sh: %v", f.Status, f.Subject, f.Fix, err))
			continue
		}
		syntax.Walk(file, func(n syntax.Node) bool {
			call, ok := n.(*syntax.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			name := call.Args[0].Lit()
			if name == "" {
				// A quoted path: the running procedures binary.
				if q, ok := call.Args[0].Parts[0].(*syntax.SglQuoted); ok && len(call.Args[0].Parts) == 1 {
					name = filepath.Base(q.Value)
				}
			}
			if !fixCommands[name] && filepath.Base(name) != "procedures" {
				out = append(out, fmt.Sprintf("%s %s: the fix %q runs %q, not a fix command", f.Status, f.Subject, f.Fix, name))
			}
			return true
		})
	}
	return out
}

func TestCheckFixesCatchesProse(t *testing.T) {
	for _, fix := range []string{
		"install the how-do-i skill at /p/skills/how-do-i/SKILL.md",
		"unset X (or set it to true) to turn it back on",
		"make it writable by you, or choose another directory",
	} {
		r := &Report{Findings: []Finding{{Status: Fail, Subject: "s", Fix: fix}}}
		if len(fixProblems(r)) == 0 {
			t.Errorf("checkFixes passed the prose fix %q", fix)
		}
	}
}
