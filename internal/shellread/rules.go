package shellread

import (
	"path"
	"strings"
)

// A rule judges the arguments of one listed command.
type rule func(args []word) bool

// rules maps every listed command name to its rule. A name not here is
// never read-only.
var rules = map[string]rule{}

func init() {
	for _, name := range strings.Fields(`cat head tail nl wc cut tr rev column comm diff cmp
		basename dirname realpath readlink echo printf pwd cd whoami uname id stat du df free
		uptime ps pgrep pstree jq grep egrep fgrep ls seq md5sum sha256sum which hexdump
		strings lsof getent type true test`) {
		rules[name] = always
	}
	rules["sed"] = sedOK
	rules["sort"] = options("o", "output", "compress-program")
	rules["yq"] = options("is", "in-place", "inplace", "split-exp")
	rules["date"] = options("s", "set")
	rules["rg"] = rgOK
	rules["tree"] = options("o", "output")
	rules["file"] = options("C", "compile")
	rules["ss"] = options("KD", "kill", "diag")
	rules["hostname"] = hostnameOK
	rules["uniq"] = fewOperands
	rules["xxd"] = fewOperands
	rules["find"] = findOK
	rules["tmux"] = tmuxOK
	rules["docker"] = dockerOK
	rules["systemctl"] = systemctlOK
	rules["journalctl"] = options("", "vacuum-size", "vacuum-time", "vacuum-files", "rotate",
		"flush", "sync", "setup-keys", "update-catalog", "relinquish-var", "smart-relinquish-var")
	rules["git"] = gitOK
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

// rgOK refuses --pre (a preprocessor command run on every file).
func rgOK(args []word) bool {
	for _, w := range args {
		if w.text == "--" && w.known() {
			return true
		}
		if w.lead || w.option() && strings.HasPrefix(w.text, "--") && longName(w.text) == "pre" {
			return false
		}
	}
	return true
}

// hostnameOK refuses an operand (it sets the name) and -F/--file.
func hostnameOK(args []word) bool {
	for _, w := range args {
		if !w.known() || !w.option() {
			return false
		}
	}
	return options("F", "file")(args)
}

// fewOperands (uniq, xxd): a second operand is an output file. A word is an
// operand unless it starts with '-'; an expanding word may be several.
func fewOperands(args []word) bool {
	n := 0
	for _, w := range args {
		if !w.known() {
			return false
		}
		if !strings.HasPrefix(w.text, "-") {
			n++
		}
	}
	return n < 2
}

// findActions are the primaries that delete, run or write.
var findActions = []string{"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprintf", "-fprint", "-fprint0", "-fls"}

func findOK(args []word) bool {
	for _, w := range args {
		if w.dynamic {
			return false
		}
		for _, a := range findActions {
			if w.text == a {
				return false
			}
			if w.glob {
				if m, err := path.Match(w.text, a); m || err != nil {
					return false
				}
			}
		}
	}
	return true
}

var tmuxReaders = set("capture-pane list-sessions list-panes list-windows list-clients list-buffers ls display-message show-options show-environment has-session")

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
	return i < len(args) && tmuxReaders[args[i].text]
}

var dockerReaders = set("ps logs inspect images stats top version info port diff")

// dockerOK: the first word that is not an option (skipping the value of
// --context/-c) must be a listed reader.
func dockerOK(args []word) bool {
	for i := 0; i < len(args); i++ {
		w := args[i]
		if w.lead {
			return false
		}
		switch {
		case w.text == "--context" || w.text == "-c":
			i++
		case strings.HasPrefix(w.text, "-"):
		default:
			return w.known() && dockerReaders[w.text]
		}
	}
	return false
}

var systemctlReaders = set("status show cat list-units list-timers list-unit-files is-active is-enabled is-failed")

func systemctlOK(args []word) bool {
	for _, w := range args {
		if w.lead {
			return false
		}
		if !strings.HasPrefix(w.text, "-") {
			return w.known() && systemctlReaders[w.text]
		}
	}
	return false
}

func set(names string) map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(names) {
		m[n] = true
	}
	return m
}
