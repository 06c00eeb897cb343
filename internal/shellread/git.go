package shellread

import "strings"

var gitReaders map[string]bool // made by loadTables

// gitDangerLong are long options that hand execution to another program or
// write a file, wherever they appear.
var gitDangerLong = []string{"open-files-in-pager", "ext-diff", "config-env", "exec-path", "output"}

// gitListWriters are the options with which branch, remote, tag and config
// write.
var gitListWriters = []string{"delete", "move", "copy", "set-upstream", "set-upstream-to", "unset",
	"unset-all", "force", "add", "prune", "edit-description", "replace-all", "rename-section",
	"remove-section", "edit", "track", "no-track", "create-reflog"}

var (
	gitGlobalFlags  map[string]bool // made by loadTables
	gitGlobalValued map[string]bool // made by loadTables
)

// gitOK judges git: global options first (-C <dir>, --git-dir/--work-tree/
// --namespace <value> and plain flags; -c sets configuration and is
// refused), then the subcommand.
func gitOK(args []word) bool {
	end := len(args) // index of the first "--": paths follow
	for i, w := range args {
		if w.text == "--" && w.known() && end == len(args) {
			end = i
		}
		// Every word, also after "--" (a value-taking option before it may
		// have taken it as its value), is checked for the options that
		// write or run something.
		t := w.text
		if strings.HasPrefix(t, "-O") ||
			strings.HasPrefix(t, "--") && abbreviates(longName(t), gitDangerLong) {
			return false
		}
		if w.option() && !w.known() && (i < end || swallowable(args, end)) {
			return false
		}
	}
	paths := len(args) > end
	full := args
	args = args[:end]
	i := 0
	for ; i < len(args); i++ {
		if !args[i].known() { // a glob may become several words
			return false
		}
		t := args[i].text
		if !strings.HasPrefix(t, "-") {
			break
		}
		name, _, hasValue := strings.Cut(t, "=")
		switch {
		case gitGlobalFlags[t]:
		case gitGlobalValued[name]:
			if !hasValue {
				i++
				if i >= len(args) || !args[i].known() {
					return false
				}
			}
		default: // -c, --shallow-file and any option not listed
			return false
		}
	}
	if i >= len(args) || !args[i].known() {
		return false
	}
	sub, rest := args[i].text, args[i+1:]
	if g := spec("git " + sub); g != nil {
		return g.judge(full[i+1:])
	}
	var operands []string
	for _, w := range rest {
		if !strings.HasPrefix(w.text, "-") {
			operands = append(operands, w.text)
		}
	}
	switch {
	case sub == "config":
		return gitConfigOK(rest, paths)
	case sub == "reflog":
		// reflog is reflog show, with log's options; expire and delete
		// rewrite it
		words := full[i+1:]
		if len(words) > 0 && words[0].text == "show" {
			words = words[1:]
		}
		if len(operands) > 0 && (operands[0] == "expire" || operands[0] == "delete") {
			return false
		}
		return spec("git log").judge(words)
	case sub == "grep":
		for _, w := range rest {
			if len(w.text) > 1 && w.text[0] == '-' && w.text[1] != '-' && strings.ContainsRune(w.text, 'O') {
				return false
			}
		}
		return true
	case gitReaders[sub]:
		return true
	case sub == "worktree" || sub == "stash":
		// the listing subcommand comes first: "git stash -m list" is a push
		return !paths && len(rest) > 0 && rest[0].text == "list"
	case sub == "branch" || sub == "remote" || sub == "tag":
		if paths { // "git branch -- b" creates b
			return false
		}
		get := false
		for _, w := range rest {
			t := w.text
			switch {
			case strings.HasPrefix(t, "--"):
				name := longName(t)
				if abbreviates(name, gitListWriters) {
					return false
				}
				get = get || sub == "config" && strings.HasPrefix(name, "get") ||
					(sub == "branch" || sub == "tag") && name == "list"
			case len(t) > 1 && t[0] == '-':
				if strings.ContainsAny(t[1:], "dDmMcCfue") {
					return false
				}
				get = get || (sub == "branch" || sub == "tag") && t == "-l"
			}
		}
		return len(operands) == 0 || get
	}
	return false
}

// swallowable reports whether the "--" at end may be the value of the
// option before it rather than the end of the options: the word before it
// is an option with no attached value.
func swallowable(args []word, end int) bool {
	if end == 0 || end >= len(args) {
		return false
	}
	p := args[end-1].text
	return strings.HasPrefix(p, "-") && !strings.Contains(p, "=")
}

// gitConfigReaders are the options with which git config reads.
var gitConfigReaders = []string{"get", "get-all", "get-regexp", "get-urlmatch", "list", "get-color", "get-colorbool"}

// gitConfigFlags are git config's options that neither write nor take a
// value in the next word.
var gitConfigFlags = []string{"global", "system", "local", "worktree", "fixed-value", "bool", "int",
	"bool-or-int", "bool-or-str", "path", "expiry-date", "null", "name-only", "includes", "no-includes",
	"show-origin", "show-scope", "no-type"}

// gitConfigOK: git config's options stop at its first operand (after the
// key, "--get" is a value pattern, and the call sets the key). With no
// reading option, one operand reads the key and two write it.
func gitConfigOK(rest []word, paths bool) bool {
	if paths {
		return false
	}
	read := false
	i := 0
	for ; i < len(rest); i++ {
		t := rest[i].text
		if !strings.HasPrefix(t, "-") {
			break
		}
		switch {
		case t == "-l":
			read = true
		case t == "-z":
		case t == "-f" || t == "--file" || t == "--blob" || t == "--type" || t == "--default":
			i++
			if i >= len(rest) || !rest[i].known() || strings.HasPrefix(rest[i].text, "-") {
				return false
			}
		case strings.HasPrefix(t, "--"):
			name, _, hasValue := strings.Cut(t[2:], "=")
			switch {
			case hasValue && (name == "file" || name == "blob" || name == "type" || name == "default"):
			case hasValue:
				return false
			case exactly(name, gitConfigReaders):
				read = true
			case exactly(name, gitConfigFlags):
			default:
				return false
			}
		default:
			return false
		}
	}
	n := len(rest) - i
	return read || n <= 1
}

func exactly(name string, names []string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}
