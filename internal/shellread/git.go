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
	end := len(args) // index of "--": paths follow
	for i, w := range args {
		if w.text == "--" && w.known() {
			end = i
			break
		}
		if w.option() && !w.known() {
			return false
		}
		t := w.text
		if strings.HasPrefix(t, "-O") ||
			strings.HasPrefix(t, "--") && abbreviates(longName(t), gitDangerLong) {
			return false
		}
	}
	paths := len(args) > end
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
	var operands []string
	for _, w := range rest {
		if !strings.HasPrefix(w.text, "-") {
			operands = append(operands, w.text)
		}
	}
	switch {
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
	case sub == "branch" || sub == "remote" || sub == "tag" || sub == "config":
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
