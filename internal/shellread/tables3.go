package shellread

import "strings"

// coreTables are more coreutils readers whose options all read, written
// from their --help on Debian 12 (macOS letters added where they exist).
var coreTables map[string]string // made by loadTables

func makeCoreTables() map[string]string {
	return map[string]string{
		"tac":      "gnu\n-b --before\n-r --regex\n-s= --separator=\n--help\n--version",
		"paste":    "gnu\n-d= --delimiters=\n-s --serial\n-z --zero-terminated\n--help\n--version",
		"join":     "gnu\n-a=\n-e=\n-i --ignore-case\n-j=\n-o=\n-t=\n-v=\n-1=\n-2=\n--check-order\n--nocheck-order\n--header\n-z --zero-terminated\n--help\n--version",
		"fold":     "gnu\n-b --bytes\n-s --spaces\n-w= --width=\n--help\n--version",
		"expand":   "gnu\n-NUM\n-i --initial\n-t= --tabs=\n--help\n--version",
		"unexpand": "gnu\n-NUM\n-a --all\n--first-only\n-t= --tabs=\n--help\n--version",
		"nproc":    "gnu\n--all\n--ignore=\n--help\n--version",
		"printenv": "gnu\n-0 --null\n--help\n--version",
		"tty":      "gnu\n-s --silent --quiet\n--help\n--version",
		"logname":  "gnu\n--help\n--version",
		"groups":   "gnu\n--help\n--version",
		"arch":     "gnu\n--help\n--version",
		"cksum":    "gnu\n-a= --algorithm=\n-c --check\n-l= --length=\n--tag\n--untagged\n-z --zero\n--ignore-missing\n--quiet\n--status\n--strict\n-w --warn\n--debug\n-o= # macOS: the historic algorithm\n--help\n--version",
		"sum":      "gnu\n-r\n-s --sysv\n--help\n--version",
		"b2sum":    "gnu\n-b --binary\n-c --check\n-l= --length=\n--tag\n-t --text\n-z --zero\n--ignore-missing\n--quiet\n--status\n--strict\n-w --warn\n--help\n--version",
	}
}

// loadCore makes the rules of the builtins false and command.
func loadCore() {
	rules["false"] = always
	rules["command"] = commandBuiltinOK
}

// commandBuiltinOK judges bash's and zsh's command builtin: -v and -V
// describe their names; otherwise (with -p or nothing) it runs the command,
// which is judged by name and words.
func commandBuiltinOK(args []word) bool {
	i := 0
	describe := false
	for ; i < len(args); i++ {
		w := args[i]
		if !w.known() {
			return false
		}
		if w.text == "--" {
			i++
			break
		}
		if len(w.text) < 2 || w.text[0] != '-' {
			break
		}
		for _, c := range w.text[1:] {
			switch c {
			case 'v', 'V':
				describe = true
			case 'p':
			default:
				return false
			}
		}
	}
	if describe {
		return true
	}
	if i >= len(args) || !args[i].known() {
		return i >= len(args)
	}
	name := args[i].text
	if name == "" || strings.ContainsAny(name, "/=") {
		return false
	}
	return commandOK(name, args[i+1:])
}
