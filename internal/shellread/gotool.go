package shellread

import "strings"

// goOK judges the go command: -C DIR first, then version (its -m and -v,
// and files), env (-json and -changed, and variable names: -w and -u
// write the environment file) and list -m alone (the main module, read
// from go.mod). Any other list may download modules, so it is refused,
// as is every other subcommand.
func goOK(args []word) bool {
	for _, w := range args {
		if !w.known() {
			return false
		}
	}
	if len(args) >= 2 && args[0].text == "-C" {
		args = args[2:]
	} else if len(args) >= 1 && strings.HasPrefix(args[0].text, "-C=") {
		args = args[1:]
	}
	if len(args) == 0 {
		return false
	}
	sub, rest := args[0].text, args[1:]
	switch sub {
	case "version":
		for _, w := range rest {
			if strings.HasPrefix(w.text, "-") && w.text != "-m" && w.text != "-v" {
				return false
			}
		}
		return true
	case "env":
		for _, w := range rest {
			if strings.HasPrefix(w.text, "-") && w.text != "-json" && w.text != "-changed" {
				return false
			}
		}
		return true
	case "list":
		m := false
		for _, w := range rest {
			switch {
			case w.text == "-m":
				m = true
			case w.text == "-json", strings.HasPrefix(w.text, "-f="):
			default:
				return false
			}
		}
		return m
	}
	return false
}
