package shellread

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// FuzzReadOnly: the classifier never panics, and every command it accepts
// passes an independent check written against syntax.Walk instead of the
// classifier's own descent: no output redirection except to /dev/null or a
// duplicate of stdout/stderr, no command or process substitution, no
// assignment, no function or compound command, and every simple command
// named by a listed bare name.
func FuzzReadOnly(f *testing.F) {
	for _, s := range []string{
		"ls", "cat f | sort | uniq -c | sort -rn | head", "echo hi >/dev/null", "echo hi > out",
		"ls 2>&1 | wc -l", "git -C /repo status", "sed -n 1,20p f", "sed -i s/a/b/ f", "echo $(rm x)",
		"cat <<EOF\n$(rm x)\nEOF", "FOO=1 ls", "tmux -L s ls", "find . -name '*.go'", "ls 3>&1",
		"echo ${X:=1}", "(ls)", "{ ls; }", "ls #c", "echo `id`", "cat <(ls)", "ls >&2", "x() { ls; }",
		pipeline20, "echo $((1+2))", "git config --get user.name", "docker --context x ps",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		if !ReadOnly(cmd) {
			return
		}
		file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
		if err != nil {
			t.Fatalf("accepted %q, which does not parse: %v", cmd, err)
		}
		if len(file.Stmts) == 0 {
			t.Fatalf("accepted the empty command %q", cmd)
		}
		syntax.Walk(file, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				t.Fatalf("accepted %q holding a substitution", cmd)
			case *syntax.Assign:
				if n.Name == nil || !envNameOK(n.Name.Value) || n.Index != nil || n.Array != nil {
					t.Fatalf("accepted %q holding an assignment beyond a harmless prefix", cmd)
				}
			case *syntax.WordIter:
				if !loopVarOK(n.Name.Value) {
					t.Fatalf("accepted %q assigning the loop variable %q", cmd, n.Name.Value)
				}
			case *syntax.FuncDecl, *syntax.Subshell, *syntax.Block, *syntax.CaseClause, *syntax.DeclClause,
				*syntax.LetClause, *syntax.ArithmCmd, *syntax.TimeClause, *syntax.CoprocClause, *syntax.CStyleLoop:
				t.Fatalf("accepted %q holding a %T", cmd, n)
			case *syntax.Redirect:
				target := ""
				if n.Word != nil {
					target = n.Word.Lit()
				}
				switch n.Op {
				case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll:
					if target != "/dev/null" && unquote(n.Word) != "/dev/null" {
						t.Fatalf("accepted %q writing to %q", cmd, target)
					}
				case syntax.DplOut:
					if target != "1" && target != "2" && unquote(n.Word) != "/dev/null" {
						t.Fatalf("accepted %q duplicating onto %q", cmd, target)
					}
				case syntax.RdrInOut:
					t.Fatalf("accepted %q opening a file for writing", cmd)
				}
			case *syntax.CallExpr:
				name := n.Args[0].Lit()
				if !listed(name) || strings.Contains(name, "/") {
					t.Fatalf("accepted %q running %q", cmd, name)
				}
			}
			return true
		})
	})
}

// unquote joins the literal and quoted parts of a word (nil for others).
func unquote(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(l.Value)
				}
			}
		}
	}
	return b.String()
}
