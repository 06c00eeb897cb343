package shellread

import (
	"strings"
	"sync"
)

// A rule judges the arguments of one listed command.
type rule func(args []word) bool

// rules maps every listed command name to its rule. A name not here is
// never read-only. It and the other tables are made on first use
// (loadTables, from ReadOnly), not at start-up: every command links this
// package, and only the gates' Bash calls need them.
var rules map[string]rule

var loadOnce sync.Once

// loadTables makes the classifier's tables, once.
func loadTables() {
	loadOnce.Do(func() {
		loadData()
		rules = map[string]rule{}
		// Builtins judged by what they are in bash and zsh, and readers
		// with no option that writes, runs or connects (ps, lsof and jq
		// parse their words by hand: BSD clusters, +/- options, filters).
		for _, name := range strings.Fields(`echo pwd cd type true ps lsof jq which`) {
			rules[name] = always
		}
		rules["sed"] = sedOK
		rules["yq"] = options("is", "in-place", "inplace", "split-exp")
		rules["ss"] = ssOK
		rules["xxd"] = xxdOK
		rules["find"] = findOK
		rules["tmux"] = tmuxOK
		loadDocker()
		rules["systemctl"] = systemctlOK
		rules["git"] = gitOK
		rules["printf"] = printfOK
		rules["test"] = testOK
		loadMore()
		gitReaders = set(`status log show diff blame describe shortlog rev-parse rev-list ls-files ls-tree
			cat-file show-ref whatchanged grep for-each-ref merge-base show-branch name-rev diff-tree
			diff-index diff-files count-objects check-ignore var`)
		gitGlobalFlags = set(`--no-pager -P --paginate -p --bare --no-replace-objects --literal-pathspecs
		--glob-pathspecs --noglob-pathspecs --icase-pathspecs --no-optional-locks --no-lazy-fetch
		--no-advice`)
		gitGlobalValued = set(`-C --git-dir --work-tree --namespace`)
		tmuxReaders = set("capture-pane list-sessions list-panes list-windows list-clients list-buffers ls display-message show-options show-environment has-session")
		systemctlReaders = set("status show cat list-units list-timers list-unit-files is-active is-enabled is-failed")
		systemctlGrammar = newGrammar(`--user --system --no-pager -a --all -l --full --plain --no-legend
	-q --quiet -r --recursive --failed --value --show-types --with-dependencies`,
			`-p --property -P -t --type --state -n --lines -o --output`)
		sedLongFlags = set("quiet silent regexp-extended separate unbuffered null-data zero-terminated posix sandbox debug")
	})
}

// testOK: every word known, no -v or -R (they evaluate an array subscript),
// and no arithmetic comparison (zsh evaluates its operands as arithmetic).
func testOK(args []word) bool {
	for _, w := range args {
		if !w.known() {
			return false
		}
		switch w.text {
		case "-v", "-R", "-eq", "-ne", "-lt", "-le", "-gt", "-ge":
			return false
		}
	}
	return true
}

func always([]word) bool { return true }

// longName returns the name of a long option word (--name or --name=value).
func longName(t string) string {
	name, _, _ := strings.Cut(t[2:], "=")
	return name
}

// abbreviates reports whether the long option name selects one of longs:
// equal to it, an abbreviation of it (GNU getopt accepts any unambiguous
// prefix), or an extension of it.
func abbreviates(name string, longs []string) bool {
	if name == "" {
		return false
	}
	for _, l := range longs {
		if strings.HasPrefix(l, name) || strings.HasPrefix(name, l) {
			return true
		}
	}
	return false
}

// options returns the rule of a reader that writes only through options:
// a short option cluster holding any of the letters in short, or a long
// option abbreviating one of longs, refuses the command. Until "--" ends
// the options, a word that may expand to an option is refused too.
func options(short string, longs ...string) rule {
	return func(args []word) bool {
		for _, w := range args {
			if w.text == "--" && w.known() {
				return true
			}
			if !w.option() {
				continue
			}
			if !w.known() {
				return false
			}
			if strings.HasPrefix(w.text, "--") {
				if abbreviates(longName(w.text), longs) {
					return false
				}
			} else if strings.ContainsAny(w.text[1:], short) {
				return false
			}
		}
		return true
	}
}

// ssOK: options alone. A filter word (and -F, a file of them) names hosts
// that ss resolves through DNS, -r resolves every address it prints, -K
// kills sockets, -D dumps to a file and -N enters another namespace; a
// separate option value would read as a filter, so it is refused too.
func ssOK(args []word) bool {
	for _, w := range args {
		if !w.known() || !w.option() || w.text == "--" {
			return false
		}
	}
	return options("KDrFN", "kill", "diag", "resolve", "filter", "net")(args)
}

var tmuxReaders map[string]bool // made by loadTables

// tmuxOK: after the global options (-L/-S socket, -T features; -c runs a
// shell command and -f loads a config that can, so both are refused) the
// command must be a listed reader. An argument ending in ';' would chain a
// second command, and a #(…) format runs one, so both are refused.
func tmuxOK(args []word) bool {
	for _, w := range args {
		if !w.known() || strings.HasSuffix(w.text, ";") || strings.Contains(w.text, "#(") {
			return false
		}
	}
	i := 0
scan:
	for i < len(args) {
		t := args[i].text
		switch {
		case t == "--":
			i++
			break scan
		case len(t) > 1 && t[0] == '-':
			i++
			for j := 1; j < len(t); j++ {
				switch c := t[j]; {
				case c == 'c' || c == 'f':
					return false
				case strings.IndexByte("LST", c) >= 0:
					if j == len(t)-1 {
						i++ // the value is the next word
					}
					continue scan
				}
			}
		default:
			break scan
		}
	}
	if i >= len(args) || !tmuxReaders[args[i].text] {
		return false
	}
	// At most one word after the reader that is not an option: tmux runs
	// further words as more commands ("display-message -p x new -d 'cmd'").
	n := 0
	for _, w := range args[i+1:] {
		if !strings.HasPrefix(w.text, "-") {
			n++
		}
	}
	return n <= 1
}

var systemctlReaders map[string]bool // made by loadTables

var systemctlGrammar grammar // made by loadTables

// systemctlOK: the listed options anywhere (--root, -H and -M are not
// listed), and the first operand a listed reader.
func systemctlOK(args []word) bool {
	operands, ok := systemctlGrammar.parse(args)
	return ok && len(operands) > 0 && operands[0].known() && systemctlReaders[operands[0].text]
}

func set(names string) map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(names) {
		m[n] = true
	}
	return m
}

// grammar is an explicit option grammar: flags take no value, valued
// options take one (attached, or the next word). Anything else is refused.
type grammar struct {
	flags, valued map[string]bool
}

func newGrammar(flags, valued string) grammar {
	return grammar{set(flags), set(valued)}
}

// parse splits args into operands, refusing an option not in g, a word that
// may expand to an option, and an option value that is not known. After
// "--" every word is an operand. A short cluster (-abc) is read letter by
// letter; a valued letter takes the rest of the cluster or the next word.
func (g grammar) parse(args []word) ([]word, bool) {
	var operands []word
	for i := 0; i < len(args); i++ {
		w := args[i]
		if !w.option() {
			operands = append(operands, w)
			continue
		}
		if !w.known() {
			return nil, false
		}
		t := w.text
		if t == "--" {
			return append(operands, args[i+1:]...), true
		}
		if strings.HasPrefix(t, "--") {
			name, _, hasValue := strings.Cut(t, "=")
			switch {
			case g.flags[name] && !hasValue:
			case g.valued[name]:
				if !hasValue {
					i++
					if i >= len(args) || !args[i].known() {
						return nil, false
					}
				}
			default:
				return nil, false
			}
			continue
		}
		for j := 1; j < len(t); j++ {
			o := "-" + t[j:j+1]
			if g.flags[o] {
				continue
			}
			if !g.valued[o] {
				return nil, false
			}
			if j == len(t)-1 {
				i++
				if i >= len(args) || !args[i].known() {
					return nil, false
				}
			}
			break
		}
	}
	return operands, true
}
