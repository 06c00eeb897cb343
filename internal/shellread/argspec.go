package shellread

import (
	"path"
	"slices"
	"strings"
	"sync"
)

// An argSpec is one program's option table, read from the small language of
// tables.go: every option the program accepts, the argument each takes, and
// what each does. A program is judged by parsing its words the way its own
// parser does (family) and refusing any option that is not a plain read,
// any option the table does not hold, and, through check, any operand that
// writes or sets state.
type argSpec struct {
	fam    family
	short  [128]optDef
	long   map[string]optDef
	longs  []string // the long names, sorted on the first abbreviation met
	sorted sync.Once
	// risky: some option is not a read, or check judges operands; then a
	// word whose text is not known may not stand where an option can.
	risky bool
	// dangerous holds the names of the options that are not reads, to
	// refuse a word that spells one anywhere (even as a value or operand).
	dangerous []string
	numeric   bool // -<digits> is a flag (head -5, git log -3)
	// check judges what the parse found, or is nil.
	check func(p *parsed) bool
}

// argKind is what follows an option.
type argKind uint8

const (
	argNone     argKind = iota + 1
	argRequired         // the rest of the word, after "=" for a long option, or the next word
	argOptional         // the rest of the word (after "=" for a long option) only
	argNext             // the next word, always (tree's and xxd's value letters)
)

// effect is what an option does.
type effect uint8

const (
	effRead  effect = iota
	effWrite        // writes a file
	effExec         // runs a program
	effNet          // opens a connection
	effState        // changes the system (clock, names, journal, caches)
)

type optDef struct {
	arg argKind // 0: not an option of the program
	eff effect
	id  int // options that are aliases share an id
}

// family is how a program's parser reads its words.
type family uint8

const (
	// famGNU is getopt_long: options and operands mixed (permutation), long
	// options abbreviated, "--" ends the options. It is judged twice, also
	// as with POSIXLY_CORRECT set, where the first operand ends the options.
	famGNU family = iota
	// famStop is getopt_long with a leading "+" (and BSD getopt, hand-rolled
	// parsers that stop the same way): the first operand ends the options.
	famStop
	// famExact permutes like famGNU but takes no abbreviations (clap,
	// cobra, tree): a long option must be spelled whole.
	famExact
)

// A use is one option the parse met.
type use struct {
	name     string // "-o" or "--output"
	def      optDef
	value    word
	hasValue bool
}

// parsed is what parsing one program's words found.
type parsed struct {
	uses     []use
	operands []word
	permuted bool // the parse that lets options follow operands
}

func (p *parsed) has(names ...string) bool {
	for _, u := range p.uses {
		if slices.Contains(names, u.name) {
			return true
		}
	}
	return false
}

// value returns the value of the last use of any of names.
func (p *parsed) value(names ...string) (word, bool) {
	for i := len(p.uses) - 1; i >= 0; i-- {
		if u := p.uses[i]; u.hasValue && slices.Contains(names, u.name) {
			return u.value, true
		}
	}
	return word{}, false
}

// parseSpec reads one table: a family word ("gnu", "stop" or "exact"),
// then options, each "-x" or "--name", followed by "=" when it requires an
// argument, "?" when it takes an optional one attached, ">" when it always
// takes the next word; names on one line are aliases. "!w", "!x", "!n" and
// "!s" on a line mark its options as writing, executing, networking or
// setting state. "-NUM" makes -<digits> a flag. "#" starts a comment, and
// " ; " separates options that are not aliases on one line.
func parseSpec(text string) *argSpec {
	head, body, _ := strings.Cut(text, "\n")
	s := &argSpec{}
	switch strings.TrimSpace(head) {
	case "gnu":
		s.fam = famGNU
	case "stop":
		s.fam = famStop
	case "exact":
		s.fam = famExact
	default:
		panic("shellread: a table's first line names its family: " + head)
	}
	n := strings.Count(body, "--")
	s.long = make(map[string]optDef, n)
	s.longs = make([]string, 0, n)
	var group [128]string // one group's words: a table line holds no more
	k, id := 0, 1
	for i := 0; i <= len(body); {
		if i == len(body) || body[i] == '\n' {
			s.addGroup(group[:k], id)
			k, id = 0, id+1
			i++
			continue
		}
		if body[i] == ' ' || body[i] == '\t' {
			i++
			continue
		}
		j := i
		for j < len(body) && body[j] != ' ' && body[j] != '\t' && body[j] != '\n' {
			j++
		}
		switch t := body[i:j]; {
		case t == "#": // a comment, to the end of the line
			for j < len(body) && body[j] != '\n' {
				j++
			}
		case t == ";":
			s.addGroup(group[:k], id)
			k, id = 0, id+1
		default:
			group[k] = t
			k++
		}
		i = j
	}
	return s
}

// addGroup adds one line's (or one " ; " group's) aliases, with id.
func (s *argSpec) addGroup(f []string, id int) {
	eff := effRead
	for _, t := range f {
		switch t {
		case "!w":
			eff = effWrite
		case "!x":
			eff = effExec
		case "!n":
			eff = effNet
		case "!s":
			eff = effState
		}
	}
	for _, t := range f {
		if t[0] == '!' {
			continue
		}
		if t == "-NUM" {
			s.numeric = true
			continue
		}
		kind := argNone
		switch t[len(t)-1] {
		case '=':
			kind, t = argRequired, t[:len(t)-1]
		case '?':
			kind, t = argOptional, t[:len(t)-1]
		case '>':
			kind, t = argNext, t[:len(t)-1]
		}
		d := optDef{arg: kind, eff: eff, id: id}
		switch {
		case strings.HasPrefix(t, "--") && len(t) > 2:
			s.long[t[2:]] = d
			s.longs = append(s.longs, t[2:])
		case len(t) == 2 && t[0] == '-' && t[1] < 128:
			s.short[t[1]] = d
		default:
			panic("shellread: not an option in a table: " + t)
		}
		if eff != effRead {
			s.risky = true
			s.dangerous = append(s.dangerous, t)
		}
	}
}

// lookupLong finds a long option by its name or, where the family takes
// them, an unambiguous abbreviation (several aliases of one option are not
// ambiguous). It returns the full name.
func (s *argSpec) lookupLong(name string) (string, optDef, bool) {
	if d, ok := s.long[name]; ok {
		return name, d, true
	}
	if s.fam == famExact || name == "" {
		return "", optDef{}, false
	}
	s.sorted.Do(func() { slices.Sort(s.longs) })
	i, _ := slices.BinarySearch(s.longs, name)
	full, d := "", optDef{}
	for ; i < len(s.longs) && strings.HasPrefix(s.longs[i], name); i++ {
		c := s.long[s.longs[i]]
		if full != "" && c.id != d.id {
			return "", optDef{}, false // ambiguous: getopt refuses it
		}
		full, d = s.longs[i], c
	}
	return full, d, full != ""
}

// judge reports whether the program run with args only reads.
func (s *argSpec) judge(args []word) bool {
	if s.risky && s.spellsDanger(args) {
		return false
	}
	// a program whose options all read and whose operands are not judged
	// needs the parse only to meet every option in the table
	p, ok := s.parseRec(args, s.fam != famStop, s.risky || s.check != nil)
	if !ok || !s.verdict(p) {
		return false
	}
	if s.fam == famGNU && s.check != nil { // as if POSIXLY_CORRECT were set
		p, ok = s.parse(args, false)
		return ok && s.verdict(p)
	}
	return true
}

func (s *argSpec) verdict(p *parsed) bool {
	for _, u := range p.uses {
		if u.def.eff != effRead {
			return false
		}
	}
	return s.check == nil || s.check(p)
}

// spellsDanger reports a known word anywhere that spells an option that is
// not a read: the table's kinds are then not the only guard against a
// value that swallows "--".
func (s *argSpec) spellsDanger(args []word) bool {
	for _, w := range args {
		t := w.text
		if len(t) < 2 || t[0] != '-' || t == "--" {
			continue
		}
		if strings.HasPrefix(t, "--") {
			name, _, _ := strings.Cut(t[2:], "=")
			if _, d, ok := s.lookupLong(name); ok && d.eff != effRead || !ok && s.abbreviatesDanger(name) {
				return true
			}
			continue
		}
		for j := 1; j < len(t); j++ {
			if c := t[j]; c < 128 && s.short[c].arg != 0 && s.short[c].eff != effRead {
				return true
			}
		}
	}
	return false
}

func (s *argSpec) abbreviatesDanger(name string) bool {
	for _, d := range s.dangerous {
		if strings.HasPrefix(d, "--") && strings.HasPrefix(d[2:], name) && name != "" {
			return true
		}
	}
	return false
}

// parse reads args as the program's parser does. permute lets options
// follow operands. It reports false for an option the table lacks, a
// missing value, a value word that starts with "-" (a value that swallows
// "--" or an option is how a table's mistake would turn into a write), and,
// for a risky program, a word that is not known where an option can stand.
func (s *argSpec) parse(args []word, permute bool) (*parsed, bool) {
	return s.parseRec(args, permute, true)
}

// unrecorded is the parse of a program whose parse keeps nothing.
var unrecorded parsed

// parseRec is parse; with record false it keeps neither the options met
// nor the operands (the verdict then only needs the parse to succeed).
func (s *argSpec) parseRec(args []word, permute, record bool) (*parsed, bool) {
	p := &unrecorded // never written: every write below is under record
	if record {
		p = &parsed{permuted: permute}
	}
	ended := false
	for i := 0; i < len(args); i++ {
		w := args[i]
		if ended || !w.option() {
			if record {
				p.operands = append(p.operands, w)
			}
			if !permute {
				ended = true
			}
			continue
		}
		if !w.known() {
			if s.risky || s.check != nil {
				return nil, false
			}
			if record {
				p.operands = append(p.operands, w) // options here only read
			}
			continue
		}
		t := w.text
		if t == "--" {
			ended = true
			continue
		}
		if strings.HasPrefix(t, "--") {
			name, value, hasValue := strings.Cut(t[2:], "=")
			full, d, ok := s.lookupLong(name)
			if !ok {
				return nil, false
			}
			u := use{name: "--" + full, def: d}
			switch d.arg {
			case argNone:
				if hasValue {
					return nil, false
				}
			case argOptional:
				u.value, u.hasValue = word{text: value}, hasValue
			case argRequired, argNext:
				u.hasValue = true
				if hasValue {
					u.value = word{text: value}
				} else if i++; !s.takeNext(args, i, &u) {
					return nil, false
				}
			}
			if record {
				p.uses = append(p.uses, u)
			}
			continue
		}
		if s.numeric && isDigits(t[1:]) {
			continue
		}
		next := i // the next word a value letter takes (tree: one each)
	cluster:
		for j := 1; j < len(t); j++ {
			c := t[j]
			if c >= 128 || s.short[c].arg == 0 {
				return nil, false
			}
			u := use{name: "-" + t[j:j+1], def: s.short[c]}
			switch u.def.arg {
			case argOptional:
				u.value, u.hasValue = word{text: t[j+1:]}, j+1 < len(t)
				if record {
					p.uses = append(p.uses, u)
				}
				break cluster
			case argRequired:
				u.hasValue = true
				if j+1 < len(t) {
					u.value = word{text: t[j+1:]}
				} else if next++; !s.takeNext(args, next, &u) {
					return nil, false
				}
				if record {
					p.uses = append(p.uses, u)
				}
				break cluster
			case argNext:
				u.hasValue = true
				if next++; !s.takeNext(args, next, &u) {
					return nil, false
				}
			}
			if record {
				p.uses = append(p.uses, u)
			}
		}
		i = next
	}
	return p, true
}

// takeNext sets u's value to args[i]: it must exist, and for a risky
// program be known and not start with "-".
func (s *argSpec) takeNext(args []word, i int, u *use) bool {
	if i >= len(args) {
		return false
	}
	v := args[i]
	if (s.risky || s.check != nil) && (!v.known() || strings.HasPrefix(v.text, "-") && v.text != "-") {
		return false
	}
	u.value = v
	return true
}

// netPath reports a word that names, or may name, bash's network
// pseudo-files /dev/tcp/… and /dev/udp/… (in any spelling path.Clean
// undoes). A word whose text is not known is judged on its literal parts.
func netPath(w word) bool {
	t := w.text
	for i := strings.Index(t, "/dev"); i >= 0; {
		c := path.Clean(t[i:])
		if strings.HasPrefix(c, "/dev/tcp/") || strings.HasPrefix(c, "/dev/udp/") ||
			c == "/dev/tcp" || c == "/dev/udp" {
			return true
		}
		j := strings.Index(t[i+1:], "/dev")
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return !w.known() && (strings.Contains(t, "tcp/") || strings.Contains(t, "udp/"))
}
