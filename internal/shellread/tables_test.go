package shellread

import (
	"context"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// helpCommands are how each table's program lists its options, where that
// is not "NAME --help".
var helpCommands = map[string][]string{
	"fdfind": {"fdfind", "--help"},
	"docker": {"docker", "--help"},
}

// helpSkip are the tables not checked against a --help listing, and why.
var helpSkip = map[string]string{
	"less": "its --help is an interactive command summary, not an option list",
	"time": "GNU time is not installed on Debian by default",
}

// helpNotOptions are words a --help text prints where options stand that
// are not options: placeholders and ranges.
var helpNotOptions = map[string][]string{
	"cut":  {"-M"},
	"diff": {"--GTYPE-group-format", "--LTYPE-line-format"},
}

var helpOption = regexp.MustCompile(`(?:^|[\s,\[/])(--?[A-Za-z0-9#~@%][A-Za-z0-9_-]*)`)

// helpOptions returns the options a --help text lists: on each line that
// starts with blanks and a "-", the names before the description.
func helpOptions(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimLeft(line, " \t")
		if trimmed == line || !strings.HasPrefix(trimmed, "-") {
			continue
		}
		head := regexp.MustCompile(`\s{2,}|\t`).Split(trimmed, 2)[0]
		for _, m := range helpOption.FindAllStringSubmatch(" "+head, -1) {
			if !slices.Contains(out, m[1]) {
				out = append(out, m[1])
			}
		}
	}
	return out
}

// TestTablesMatchHelp runs every tabled program found on this machine with
// --help and fails on an option it lists that its table lacks: a new
// option must be read and given its effect before it is allowed (until
// then the gate refuses it as unknown).
func TestTablesMatchHelp(t *testing.T) {
	loadTables()
	all := map[string]string{}
	for name, text := range optionTables {
		all[name] = text
	}
	for name, text := range moreTables {
		all[name] = text
	}
	for name, text := range coreTables {
		all[name] = text
	}
	all["docker"] = dockerGlobal
	checked := 0
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range all {
			if !yield(n) {
				return
			}
		}
	}) {
		if helpSkip[name] != "" {
			continue
		}
		argv := helpCommands[name]
		if argv == nil {
			argv = []string{name, "--help"}
		}
		if _, err := exec.LookPath(argv[0]); err != nil {
			t.Logf("%s: not installed here, its table is not checked", name)
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Env = []string{"LC_ALL=C", "PATH=/usr/bin:/bin", "COLUMNS=200", "MANPAGER=cat", "PAGER=cat"}
		out, _ := cmd.CombinedOutput()
		cancel()
		s := parseSpec(all[name])
		var missing []string
		for _, o := range helpOptions(string(out)) {
			if o == "--" || slices.Contains(helpNotOptions[name], o) || s.numeric && isDigits(o[1:]) {
				continue
			}
			if strings.HasPrefix(o, "--") {
				if _, ok := s.long[o[2:]]; !ok {
					missing = append(missing, o)
				}
			} else if len(o) == 2 && o[1] < 128 && s.short[o[1]].arg == 0 {
				missing = append(missing, o)
			}
		}
		checked++
		if len(missing) > 0 {
			t.Errorf("%s --help lists options its table lacks: %s", name, strings.Join(missing, " "))
		}
	}
	t.Logf("%d tables checked against --help", checked)
}

// A table's parse: kinds, effects and aliases read as written.
func TestParseSpec(t *testing.T) {
	s := parseSpec("gnu\n-o= --output= !w\n-c --check?\n-L>\n-NUM")
	if s.short['o'].arg != argRequired || s.short['o'].eff != effWrite || s.long["output"].id != s.short['o'].id {
		t.Errorf("-o/--output: %+v %+v", s.short['o'], s.long["output"])
	}
	if s.long["check"].arg != argOptional || s.short['c'].arg != argNone || s.short['L'].arg != argNext || !s.numeric || !s.risky {
		t.Errorf("parsed %+v", s)
	}
	if full, _, ok := s.lookupLong("out"); !ok || full != "output" {
		t.Errorf("--out does not abbreviate --output")
	}
}

// TestGitTablesMatchHelper checks each git subcommand's table against
// git's own list of its options (--git-completion-helper, which lists a
// subcommand's parse-options; the revision and diff options come from the
// manual pages and are pinned by the verdict tests).
func TestGitTablesMatchHelper(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed here")
	}
	loadTables()
	for _, sub := range slices.Sorted(func(yield func(string) bool) {
		for n := range gitTables {
			if !yield(n) {
				return
			}
		}
	}) {
		out, _ := exec.Command("git", sub, "--git-completion-helper").Output()
		var missing []string
		for _, o := range strings.Fields(string(out)) {
			name := strings.TrimSuffix(strings.TrimPrefix(o, "--"), "=")
			if o == "--" || !strings.HasPrefix(o, "--") {
				continue
			}
			if _, ok := spec("git " + sub).long[name]; !ok {
				missing = append(missing, o)
			}
		}
		if len(missing) > 0 {
			t.Errorf("git %s lists options its table lacks: %s", sub, strings.Join(missing, " "))
		}
	}
}
