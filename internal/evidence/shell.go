package evidence

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A call is what one Bash command line does, as far as the sections care.
type call struct {
	queryRecords bool       // runs query-records (script, launcher or binary)
	catBatches   int        // query-records runs with --cat
	catPaths     []string   // the references those --cat runs read
	digestRead   bool       // runs session-digest-read
	other        bool       // find/ls/grep/cat/awk/… on a record store
	unexpanded   bool       // carries a literal ${CLAUDE_…} the CLI should have expanded
	queries      [][]string // the arguments of each query-records run, in order
}

// maxNest bounds how deep `bash -c '…'` strings are parsed again.
const maxNest = 3

// classify reads a Bash tool command on the mvdan.cc/sh/v3/syntax AST. A
// command that does not parse counts only for the unexpanded-variable
// check, which is about the literal text the model sent.
func classify(cmd string) call {
	var c call
	c.unexpanded = unexpandedRE.MatchString(cmd)
	c.walk(cmd, 0)
	return c
}

func (c *call) walk(cmd string, depth int) {
	f, err := syntax.NewParser().Parse(strings.NewReader(cmd), "")
	if err != nil {
		return
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		ce, ok := n.(*syntax.CallExpr)
		if !ok || len(ce.Args) == 0 {
			return true
		}
		args := make([]string, len(ce.Args))
		for i, w := range ce.Args {
			args[i] = wordText(w)
		}
		c.argv(args, depth)
		return true
	})
}

// wordText is a word's text with quotes removed; a parameter expansion is
// written back as ${NAME} and anything dynamic as a NUL, which no name
// matches.
func wordText(w *syntax.Word) string {
	var b strings.Builder
	var parts func(ps []syntax.WordPart)
	parts = func(ps []syntax.WordPart) {
		for _, p := range ps {
			switch p := p.(type) {
			case *syntax.Lit:
				b.WriteString(p.Value)
			case *syntax.SglQuoted:
				b.WriteString(p.Value)
			case *syntax.DblQuoted:
				parts(p.Parts)
			case *syntax.ParamExp:
				if p.Param != nil {
					b.WriteString("${" + p.Param.Value + "}")
				}
			default:
				b.WriteByte(0)
			}
		}
	}
	parts(w.Parts)
	return b.String()
}

// wrapper reports the programs that run their operands as a command.
func wrapper(name string) bool {
	switch name {
	case "env", "command", "exec", "nice", "nohup", "time":
		return true
	}
	return false
}

// storeSearch reports the programs that count as retrieval around
// query-records when they touch a record store.
func storeSearch(name string) bool {
	switch name {
	case "find", "ls", "grep", "egrep", "fgrep", "rg", "cat", "awk", "head", "tail", "sed":
		return true
	}
	return false
}

func (c *call) argv(args []string, depth int) {
	for range 8 { // unwrap at most a few wrappers
		if len(args) == 0 {
			return
		}
		name := path.Base(args[0])
		switch {
		case wrapper(name):
			args = args[1:]
			for len(args) > 0 && (strings.HasPrefix(args[0], "-") || strings.Contains(args[0], "=")) {
				args = args[1:]
			}
			continue
		case name == "bash" || name == "sh":
			args = args[1:]
			for len(args) > 0 && strings.HasPrefix(args[0], "-") {
				if args[0] == "-c" && len(args) > 1 {
					if depth < maxNest {
						c.walk(args[1], depth+1)
					}
					return
				}
				args = args[1:]
			}
			continue
		}
		break
	}
	if len(args) == 0 {
		return
	}
	name := strings.TrimSuffix(path.Base(args[0]), ".sh")
	rest := args[1:]
	if name == "procedures" && len(rest) > 0 {
		name, rest = rest[0], rest[1:]
	}
	switch {
	case name == "query-records":
		c.queryRecords = true
		c.queries = append(c.queries, rest)
		for i, a := range rest {
			if a == "--cat" {
				c.catBatches++
				for _, p := range rest[i+1:] {
					if strings.HasPrefix(p, "-") {
						break
					}
					c.catPaths = append(c.catPaths, p)
				}
				break
			}
		}
	case name == "session-digest-read":
		c.digestRead = true
	case storeSearch(name):
		for _, a := range rest {
			if storePath(a) {
				c.other = true
				break
			}
		}
	}
}

// storePath reports whether p names a record store or something in one:
// a path with a references, plans or titw component.
func storePath(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		switch seg {
		case "references", "plans", "titw":
			return true
		}
	}
	return false
}
