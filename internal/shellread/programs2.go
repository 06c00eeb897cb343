package shellread

import "strings"

// moreChecks are the operand rules of moreTables' programs.
var moreChecks map[string]func(p *parsed) bool // made by loadTables

func makeMoreChecks() map[string]func(p *parsed) bool {
	return map[string]func(p *parsed) bool{
		// gzip writes in place unless it lists, tests or writes to stdout
		"gzip": func(p *parsed) bool {
			return p.has("-l", "--list", "-t", "--test", "-c", "--stdout", "--to-stdout") ||
				len(p.operands) == 0 && !p.has("-r", "--recursive") // a filter, stdin to stdout
		},
		// tar lists only, and never from a remote archive (host:file runs rsh)
		"tar": func(p *parsed) bool {
			if !p.has("-t", "--list") {
				return false
			}
			if f, ok := p.value("-f", "--file"); ok && strings.Contains(f.text, ":") && !p.has("--force-local") {
				return false
			}
			return true
		},
		// a second operand may be the output (macOS)
		"base64": func(p *parsed) bool { return len(p.operands) < 2 && allKnown(p.operands) },
		// an initial command (+cmd) runs like a typed one: !, |, s, v reach a
		// shell, a file or an editor
		"less": func(p *parsed) bool { return !plusCommand(p.operands, false) },
		"more": func(p *parsed) bool { return !plusCommand(p.operands, true) },
	}
}

// plusCommand reports an operand that is a pager's initial command other
// than "+N" and "+/pattern" (and less's "+G", "+g", "+F"): the others can
// reach a shell (!), a pipe (|), a file (s) or an editor (v).
func plusCommand(ops []word, more bool) bool {
	for _, w := range ops {
		if !w.known() && (w.lead || strings.HasPrefix(w.text, "+")) {
			return true // may expand to +cmd
		}
		if w.known() && strings.HasPrefix(w.text, "+") {
			rest := w.text[1:]
			if isDigits(rest) || strings.HasPrefix(rest, "/") || !more && (rest == "G" || rest == "g" || rest == "F") {
				continue // a line, a search, the end, follow
			}
			return true
		}
	}
	return false
}

// loadMore makes the rules of the programs moreTables' parse does not
// finish: tar's old form, the programs that run another (xargs, env,
// nice, time), awk and go.
func loadMore() {
	rules["tar"] = tarOK
	rules["xargs"] = xargsOK
	rules["env"] = envOK
	rules["nice"] = wrapperOK("nice")
	rules["time"] = wrapperOK("time")
	for _, name := range []string{"awk", "gawk", "mawk", "nawk"} {
		rules[name] = awkOK
	}
	rules["go"] = goOK
	loadCore()
}

// tarOK reads tar's old form too: a first word without "-" is a cluster
// of letters whose value letters take the next words in order ("tzf a").
func tarOK(args []word) bool {
	if len(args) > 0 && args[0].known() && args[0].text != "" && !strings.HasPrefix(args[0].text, "-") {
		t := args[0].text
		s := spec("tar")
		out := []word{}
		next := 1
		for j := 0; j < len(t); j++ {
			c := t[j]
			if c >= 128 || s.short[c].arg == 0 {
				return false
			}
			out = append(out, word{text: "-" + t[j:j+1]})
			if s.short[c].arg == argRequired {
				if next >= len(args) || !args[next].known() {
					return false
				}
				out = append(out, args[next])
				next++
			}
		}
		args = append(out, args[next:]...)
	}
	return spec("tar").judge(args)
}

// runsCommand splits a wrapper's words into its own, judged by its table,
// and the command it runs with that command's words.
func runsCommand(name string, args []word) (cmd string, rest []word, ok bool) {
	s := spec(name)
	p, ok := s.parse(args, false)
	if !ok || !s.verdict(p) {
		return "", nil, false
	}
	if len(p.operands) == 0 {
		return "", nil, true
	}
	c := p.operands[0]
	if !c.known() || c.text == "" || strings.ContainsAny(c.text, "/=") {
		return "", nil, false
	}
	return c.text, p.operands[1:], true
}

// wrapperOK judges nice and time: their own options, then the command
// they run, judged by name and words.
func wrapperOK(name string) rule {
	return func(args []word) bool {
		cmd, rest, ok := runsCommand(name, args)
		return ok && (cmd == "" || commandOK(cmd, rest))
	}
}

// stdinWord is a word xargs reads from its input: anything at all.
var stdinWord = word{dynamic: true, glob: true, lead: true}

// xargsOK: xargs runs its command (echo without one) with words read from
// its input appended, so the command is judged with an unknown word added.
func xargsOK(args []word) bool {
	cmd, rest, ok := runsCommand("xargs", args)
	if !ok {
		return false
	}
	if cmd == "" {
		cmd = "echo"
	}
	return commandOK(cmd, append(rest[:len(rest):len(rest)], stdinWord))
}

// envSafe are the variables env may set for the command it runs: locale,
// time zone and terminal size. Anything else (PATH, LD_*, HOME, GIT_*,
// pagers, a program's config) can make a reader run or write.
func envSafe(name string) bool {
	switch name {
	case "LANG", "LANGUAGE", "TZ", "COLUMNS", "LINES", "NO_COLOR", "TERM":
		return true
	}
	return strings.HasPrefix(name, "LC_") && len(name) > 3 && strings.Trim(name[3:], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == ""
}

// envOK: env's options, NAME=VALUE words each setting a safe variable,
// then the command (none prints the environment).
func envOK(args []word) bool {
	s := spec("env")
	p, ok := s.parse(args, false)
	if !ok || !s.verdict(p) {
		return false
	}
	ops := p.operands
	for len(ops) > 0 {
		name, _, isAssign := strings.Cut(ops[0].text, "=")
		if !isAssign {
			break
		}
		if !ops[0].known() || !envSafe(name) {
			return false
		}
		ops = ops[1:]
	}
	if len(ops) == 0 {
		return true
	}
	c := ops[0]
	if !c.known() || c.text == "" || strings.ContainsAny(c.text, "/") {
		return false
	}
	return commandOK(c.text, ops[1:])
}
